// A data file with many stored charges, written directly (no HTTP calls) a few MB at a time, so a file past 512 MiB
// (more than one string can hold) is made in seconds: for the storage bench and the test of a big data file.
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * Writes `file`: the state `state` (JSON text) with `n` copies of `charge` (JSON text of a charge whose id is `id`)
 * added to the transactions of account `accountId`, each with a fresh id, one a line as the sandbox writes them (all on
 * one line with `oneLine`, as sandboxes before issue 39 did). Returns the file's size in bytes and the first and last
 * charge ids.
 */
export function writeSeedFile(file, { state, charge, id, accountId, n, oneLine = false }) {
  const base = JSON.stringify({ ...JSON.parse(state), journalSeq: 0 });
  const marker = '"transactions":{';
  const at = base.indexOf(marker, base.indexOf(`${JSON.stringify(accountId)}:{`)) + marker.length;
  if (at < marker.length) throw new Error(`no transactions of account ${accountId} in the state`);
  const parts = charge.split(id);
  const fd = openSync(file, 'w');
  let bytes = 0;
  const ids = [];
  const write = (text) => (bytes += writeSync(fd, text));
  try {
    write(base.slice(0, at));
    for (let i = 0; i < n; ) {
      let chunk = '';
      for (const end = Math.min(n, i + 4096); i < end; i++) {
        const fresh = randomUUID();
        if (i === 0 || i === n - 1) ids.push(fresh);
        chunk += `${i === 0 ? '' : ','}${oneLine ? '' : '\n'}"${fresh}":${parts.join(fresh)}`;
      }
      write(chunk);
    }
    write(`${n === 0 || base[at] === '}' ? '' : ','}${base.slice(at)}`);
  } finally {
    closeSync(fd);
  }
  return { bytes, first: ids[0], last: ids.at(-1) };
}
