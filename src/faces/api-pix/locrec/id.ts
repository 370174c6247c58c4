// A recurrence location id in a path: a positive integer; anything else names no location (404, as an unknown id would).
import { SandboxError } from '../../../domain/errors';

export function locRecId(raw: string): number {
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new SandboxError('PAYLOAD_LOCATION_REC_NOT_FOUND', `No recurrence payload location '${raw}': location ids are positive integers (see GET /api-pix/v2/locrec).`, { resource: 'locrec', id: raw });
  return Number(raw);
}
