// The machine description printed above every benchmark table.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  nproc: number;
  cpu: string;
  memory: string;
  node: string;
  platform: string;
}

export function describeMachine(): Machine {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1]!.trim();
  } catch {
    /* not Linux: os.cpus() is good enough */
  }
  return {
    nproc: os.availableParallelism(),
    cpu,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}
