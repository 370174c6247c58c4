export function writeSeedFile(file: string, seed: { state: string; charge: string; id: string; accountId: string; n: number; oneLine?: boolean }): { bytes: number; first: string; last: string };
