// Unknown fields of a request body, named (sandbox.md 14): the service ignores a field it does not know, so a typo
// (`expiresInn`, `customer.documnet`) silently falls back to a default far from its cause. The known fields are read
// from the route's own zod schema (compiled once per schema into a tree of key sets), never listed again; a body is
// walked against that tree after it has passed. A body with no unknown field allocates nothing: the list is made at
// the first unknown field, and paths are written only for the fields found.
import { quotedForHeader } from '../lib/header-text';
import { nearestNames } from '../lib/nearest';

/** An unknown field: where it is (as a client writes it: `split[1].amout`) and the field near it, if one is. */
export interface UnknownField {
  field: string;
  suggestion?: string;
}

/** What a schema checks of keys: an object's own (and their trees), an array's items, any key, or nothing (a primitive). */
type Tree = { keys: Map<string, Tree | undefined>; names: string[] } | { items: Tree } | typeof OPEN | undefined;
const OPEN = 'open' as const;

const trees = new WeakMap<object, Tree>();
const BUSY = { items: OPEN } as const; // a schema being compiled (z.lazy of itself): what it meets again takes any key

interface Def {
  type: string;
  shape?: Record<string, unknown>;
  catchall?: unknown;
  innerType?: unknown;
  in?: unknown;
  element?: unknown;
  options?: unknown[];
  left?: unknown;
  right?: unknown;
  getter?: () => unknown;
}
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

const PRIMITIVES = new Set(['string', 'number', 'int', 'boolean', 'bigint', 'symbol', 'null', 'undefined', 'void', 'never', 'date', 'enum', 'literal', 'nan', 'template_literal', 'file', 'success']);

function treeOf(schema: unknown): Tree {
  if (schema === null || typeof schema !== 'object') return OPEN;
  if (trees.has(schema)) return trees.get(schema);
  trees.set(schema, BUSY);
  const tree = compile(schema);
  trees.set(schema, tree);
  return tree;
}

function compile(schema: object): Tree {
  const def = defOf(schema);
  if (!def) return OPEN;
  switch (def.type) {
    case 'object': {
      // A catchall (looseObject, .catchall()) takes any key; a strict object refuses one in its own parse.
      if (def.catchall !== undefined) return OPEN;
      const keys = new Map<string, Tree>();
      for (const [name, field] of Object.entries(def.shape ?? {})) keys.set(name, treeOf(field));
      return { keys, names: [...keys.keys()] };
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return treeOf(def.innerType);
    case 'pipe':
      return treeOf(def.in); // a transform's input is what the client sends
    case 'array':
      return itemsOf(treeOf(def.element));
    case 'union':
      return (def.options ?? []).map(treeOf).reduce<Tree>(merge, undefined);
    case 'intersection':
      return merge(treeOf(def.left), treeOf(def.right));
    case 'lazy':
      return treeOf(def.getter?.());
    default:
      return PRIMITIVES.has(def.type) ? undefined : OPEN; // record, any, unknown, custom...: any key
  }
}

const itemsOf = (item: Tree): Tree => (item === undefined ? undefined : { items: item });

/** What either of two schemas takes (a union's options): an object key known to either is known. */
function merge(a: Tree, b: Tree): Tree {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a === OPEN || b === OPEN) return OPEN;
  if ('items' in a && 'items' in b) return { items: merge(a.items, b.items) ?? OPEN };
  if ('keys' in a && 'keys' in b) {
    const keys = new Map(a.keys);
    for (const [name, tree] of b.keys) keys.set(name, keys.has(name) ? merge(keys.get(name), tree) : tree);
    return { keys, names: [...keys.keys()] };
  }
  return OPEN; // an object or an array: one tree cannot say which, so neither is checked
}

function walk(tree: Tree, value: unknown, found: UnknownField[] | undefined): UnknownField[] | undefined {
  if (tree === undefined || tree === OPEN || value === null || typeof value !== 'object') return found;
  if ('items' in tree) {
    if (!Array.isArray(value)) return found;
    for (let i = 0; i < value.length; i++) {
      const inner = walk(tree.items, value[i], undefined);
      if (inner) for (const f of inner) (found ??= []).push(prefixed(f, `[${i}]`));
    }
    return found;
  }
  if (Array.isArray(value)) return found;
  for (const key in value) {
    if (!tree.keys.has(key)) {
      const [suggestion] = nearestNames(key, tree.names);
      (found ??= []).push(suggestion === undefined ? { field: key } : { field: key, suggestion });
      continue;
    }
    const child = tree.keys.get(key);
    if (child === undefined || child === OPEN) continue;
    const inner = walk(child, (value as Record<string, unknown>)[key], undefined);
    if (inner) for (const f of inner) (found ??= []).push(prefixed(f, key));
  }
  return found;
}

/** `f` seen from one level up: under `head` (a key or an index). */
function prefixed(f: UnknownField, head: string): UnknownField {
  const join = (path: string) => head + (path.startsWith('[') ? path : `.${path}`);
  return f.suggestion === undefined ? { field: join(f.field) } : { field: join(f.field), suggestion: join(f.suggestion) };
}

/** The fields of `value` that `schema` does not know, at any depth; undefined when there is none. */
export function unknownFields(schema: unknown, value: unknown): UnknownField[] | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  return walk(treeOf(schema), value, undefined);
}

/**
 * The warning of an unknown field, as the Sandbox-Warning header and the request log say it: the name as a header can
 * carry it (lib/header-text.ts: `unknown field "\ud83d\ude42"`), the same in both.
 */
export const unknownFieldWarning = (f: UnknownField) =>
  f.suggestion === undefined
    ? `unknown field ${quotedForHeader(f.field)}; it is ignored, as the service ignores it`
    : `unknown field ${quotedForHeader(f.field)}; did you mean ${quotedForHeader(f.suggestion)}?`;

/** The warning that counts the unknown fields of a body past those named one by one. */
export const moreUnknownFieldsWarning = (more: number) => `${more} more unknown field${more === 1 ? '' : 's'}; they are ignored, as the service ignores them`;

/** The field error of an unknown field refused (--strict, strict tenants, the control API). */
export const unknownFieldMessage = (f: UnknownField) =>
  f.suggestion === undefined ? 'is not a field of this request; remove it' : `is not a field of this request; did you mean "${f.suggestion}"?`;
