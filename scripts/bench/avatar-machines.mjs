// Avatars per machine, per CPU model: the avatar sweep of `npm run bench` (row 6) labels its result with the CPU it
// ran on and keeps the results of earlier runs on other CPUs in avatar-machines.json, so the table shows every
// machine measured, each labelled, and a run on one CPU never silently replaces another CPU's number.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MACHINES_FILE = join(dirname(fileURLToPath(import.meta.url)), 'avatar-machines.json');

/**
 * The CPU this process runs on, as the table shows it: `2 × AMD EPYC (family 25, model 17, 2596 MHz)`. Virtual
 * machines often report a bare family name ("AMD EPYC"), so the family and model numbers from /proc/cpuinfo (Linux)
 * and the clock are added: two hosts with the same name can be different generations.
 */
export function cpuLabel() {
  const list = cpus();
  const model = (list[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim();
  const extra = [];
  let mhz = list[0]?.speed || 0;
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const field = (name) => info.match(new RegExp(`^${name}\\s*:\\s*(.+)$`, 'm'))?.[1]?.trim();
    const family = field('cpu family');
    const number = field('model');
    if (family && number) extra.push(`family ${family}, model ${number}`);
    mhz ||= Math.round(Number(field('cpu MHz')) || 0); // os.cpus() says 0 on some virtual machines
  } catch {
    /* not Linux */
  }
  if (mhz && !/\d(\.\d+)?\s*[GM]Hz/i.test(model)) extra.push(`${mhz} MHz`);
  return `${list.length} × ${model}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

/**
 * The recorded machines, newest first: `{cpu, held, under?, date?, commit?, command?, note?}` where `held` is the
 * most avatars that all kept ≥ 24 fps (a number, or a text such as "under 8" when no count held) and `under` the
 * first count that did not (`{n, minFps}`).
 */
export function loadMachines(file = MACHINES_FILE) {
  try {
    const list = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** Records `entry` for its CPU (replacing that CPU's earlier entry) and writes the file; returns the new list. */
export function recordMachine(entry, file = MACHINES_FILE) {
  const list = [entry, ...loadMachines(file).filter((m) => m.cpu !== entry.cpu)];
  writeFileSync(file, `${JSON.stringify(list, null, 2)}\n`);
  return list;
}
