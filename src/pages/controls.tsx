// The console's two building blocks, shared by its sections and the Room panel: an action (a form sent as JSON to the
// /_sandbox route in data-action by /assets/console.js, its outcome said once in its <output>) and a labelled field.
import type { Child } from 'hono/jsx';

export function Action(props: { action: string; method?: string; label: string; name?: string; kind?: 'secondary' | 'danger'; then?: string; class?: string; children?: Child }) {
  return (
    <form class={`action ${props.class ?? ''}`} data-action={props.action} data-method={props.method ?? 'POST'} data-then={props.then}>
      {props.children}
      <button type="submit" class={props.kind} aria-label={props.name}>
        {props.label}
      </button>
      <output class="outcome" role="status"></output>
    </form>
  );
}

export function Field(props: { id: string; label: string; hint?: string; children: Child }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? <span class="hint">{props.hint}</span> : null}
    </div>
  );
}
