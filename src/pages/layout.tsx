// TEMPORARY stand-in until the console's layout is merged (branch console owns this file).
import type { Child } from 'hono/jsx';
import { raw } from 'hono/html';

export function Layout(props: { title: string; scripts?: string[]; tokenRequired?: boolean; children?: Child }) {
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{props.title}</title>
        </head>
        <body>
          {props.children}
          {(props.scripts ?? []).map((s) => (
            <script type="module" src={s}></script>
          ))}
        </body>
      </html>
    </>
  );
}
