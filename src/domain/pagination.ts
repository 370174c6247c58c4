// Page-number pagination shared by the list routes: the service's list envelope (projects, v1 customers) carries
// totalPages; the sandbox's own lists (sandbox.md 4.8) answer {items, total, page, limit}.
export interface PageRequest {
  page: number;
  limit: number;
}

export interface ListPage<T> extends PageRequest {
  items: T[];
  total: number;
}

export interface Page<T> extends ListPage<T> {
  totalPages: number;
}

export const pageOf = <T>(all: T[], { page, limit }: PageRequest): ListPage<T> => ({ items: all.slice((page - 1) * limit, page * limit), total: all.length, page, limit });

export function paginate<T>(all: T[], page: number, limit: number): Page<T> {
  return { ...pageOf(all, { page, limit }), totalPages: Math.ceil(all.length / limit) };
}
