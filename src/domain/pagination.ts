// Page-number pagination shared by the list routes (projects, v1 customers): the service's list envelope.
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export function paginate<T>(all: T[], page: number, limit: number): Page<T> {
  return { items: all.slice((page - 1) * limit, page * limit), total: all.length, page, limit, totalPages: Math.ceil(all.length / limit) };
}
