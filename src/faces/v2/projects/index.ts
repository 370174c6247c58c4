import type { Deps } from '../../../deps';
import type { Router } from '../../../wire/env';
import * as get from './get';
import * as list from './list';
import * as post from './post';

export function registerProjects(app: Router, deps: Deps) {
  post.register(app, deps);
  list.register(app, deps);
  get.register(app, deps);
}
