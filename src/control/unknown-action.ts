// POST /_sandbox/{collection}/{id}/{something that is not an action}: a 400 naming the actions there are, not a bare
// 404. A wildcard after the id (not a second parameter beside the action paths, which Hono's RegExpRouter refuses, so
// that every control request would be matched by the slower TrieRouter: wire/growing-router.ts); registered after the
// actions, it runs only when none of them took the path, and passes on (to the 404) for a path that is not
// {id}/{one segment}.
import type { Context, Next } from 'hono';
import { validationError } from '../domain/errors';

export const unknownAction =
  (collection: string, actions: readonly string[]) =>
  (c: Context, next: Next): Promise<void> => {
    const path = c.req.path;
    const tail = path.slice(path.indexOf(collection) + collection.length).split('/');
    if (tail.length === 2 && tail[0] !== '' && tail[1] !== '') throw validationError([{ field: 'action', message: `must be one of ${actions.join(', ')}` }]);
    return next();
  };
