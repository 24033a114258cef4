import { readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) a process has used so far, every thread, or only its main thread
 * (the event loop: its task id is the process id); NaN off Linux.
 */
export function cpuSeconds(pid: number | undefined, mainThreadOnly = false): number {
  try {
    const file = mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`;
    const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
