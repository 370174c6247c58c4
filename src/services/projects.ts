// Projects belong to a wallet: the main account's, or the sub-account's named by X-Sub-Account.
import type { Deps } from '../deps';
import { notFound } from '../domain/errors';
import { paginate } from '../domain/pagination';
import type { Project } from '../domain/types';
import type { Caller } from '../domain/auth';
import { createProjectIn } from './accounts';

export function createProject(deps: Deps, caller: Caller, input: { name: string; color: string; description?: string; logoUrl?: string }): Project {
  const project = createProjectIn(deps, caller.account, caller.wallet, input);
  return project;
}

export const walletProjects = (caller: Pick<Caller, 'account' | 'wallet'>): Project[] =>
  caller.account.projects.filter((p) => p.walletId === caller.wallet.id);

export type ProjectSort = 'createdAt' | 'updatedAt' | 'name';

export function listProjects(caller: Caller, q: { page: number; limit: number; sortBy: ProjectSort; sortOrder: 'asc' | 'desc'; search?: string | undefined }) {
  const dir = q.sortOrder === 'asc' ? 1 : -1;
  const key = (p: Project) => (q.sortBy === 'name' ? p.name.toLowerCase() : p[q.sortBy]);
  const needle = q.search?.trim().toLowerCase();
  const all = walletProjects(caller).filter((p) => !needle || p.name.toLowerCase().includes(needle)).sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return (ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : 1) * dir;
  });
  return paginate(all, q.page, q.limit);
}

export function getProject(caller: Caller, id: string): Project {
  const project = walletProjects(caller).find((p) => p.id === id);
  if (!project) throw notFound('PROJECT_NOT_FOUND', 'project', id, 'List projects with GET /v2/projects.');
  return project;
}
