import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { Resolver } from 'node:dns/promises';

// A real DNS server for the tests of domain verification: Debian's dnsmasq on a free port of
// 127.0.0.1, answering the TXT records it was started with. Node's Resolver reads it through
// setServers(['127.0.0.1:<port>']), as DNS_SERVERS makes the app do. Tests skip, saying so, where
// dnsmasq is not installed (apt-get install dnsmasq-base).

export const DNSMASQ = process.env.TEST_DNSMASQ ?? '/usr/sbin/dnsmasq';

/** Why the dnsmasq tests cannot run here, or undefined when they can. */
export function dnsmasqMissing(): string | undefined {
  return existsSync(DNSMASQ) ? undefined : `no dnsmasq at ${DNSMASQ} (apt-get install dnsmasq-base, or set TEST_DNSMASQ)`;
}

/** One TXT record: its text in chunks (the strings DNS carries it in; their concatenation is its value). */
export interface TxtRecord {
  name: string;
  chunks: string[];
}

export const txt = (name: string, ...chunks: string[]): TxtRecord => ({ name, chunks });

export interface DnsmasqOptions {
  /**
   * Zones answered here alone: a name under one without a record is NXDOMAIN (or no data),
   * as an authoritative server says. Elsewhere dnsmasq, with no upstream, refuses.
   */
  zones?: string[];
  /** A port of 127.0.0.1 chosen beforehand (a server started earlier was told it); a free one by default. */
  port?: number;
}

export interface Dnsmasq {
  /** For DNS_SERVERS / Resolver.setServers. */
  readonly address: string;
  /** Serves these records instead (dnsmasq reads TXT records at start only: it is restarted on the same port). */
  setRecords(records: TxtRecord[]): Promise<void>;
  stop(): Promise<void>;
}

function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

function argumentsFor(port: number, records: TxtRecord[], zones: string[]): string[] {
  for (const record of records) {
    // On dnsmasq's command line a comma separates the strings of one record; quotes are the shell's.
    for (const chunk of record.chunks) if (/[",\\\n]/.test(chunk)) throw new Error(`a TXT chunk dnsmasq cannot take: ${chunk}`);
  }
  return [
    '--keep-in-foreground',
    // Nothing of the machine's own set-up: no /etc/dnsmasq.conf, no pid file, no /etc/hosts, no upstream.
    '--conf-file=/dev/null',
    '--pid-file',
    `--port=${port}`,
    '--listen-address=127.0.0.1',
    '--bind-interfaces',
    '--no-resolv',
    '--no-hosts',
    '--log-facility=-',
    ...zones.map((zone) => `--local=/${zone}/`),
    ...records.map((record) => `--txt-record=${[record.name, ...record.chunks].join(',')}`),
  ];
}

/** Resolves once dnsmasq answers on the port (any answer, even a refusal, means it listens). */
async function answering(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const resolver = new Resolver({ timeout: 200, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  for (let attempt = 0; attempt < 50; attempt++) {
    if (child.exitCode !== null) throw new Error(`dnsmasq exited (${child.exitCode}): ${output()}`);
    try {
      await resolver.resolveTxt('corto-ready.invalid');
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'ECONNREFUSED' && code !== 'ETIMEOUT') return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`dnsmasq did not answer on 127.0.0.1:${port}: ${output()}`);
}

function launch(port: number, records: TxtRecord[], zones: string[]): Promise<ChildProcess> {
  const child = spawn(DNSMASQ, argumentsFor(port, records, zones), { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (data: Buffer) => {
    output = (output + data.toString()).slice(-2000);
  });
  return answering(port, child, () => output).then(
    () => child,
    async (error: unknown) => {
      await stopChild(child);
      throw error;
    },
  );
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * dnsmasq listens on TCP too, and a port free for UDP may be one another suite holds for TCP: on
 * that refusal, another port.
 */
async function launchOnFreePort(records: TxtRecord[], zones: string[]): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freeUdpPort();
    try {
      return { port, child: await launch(port, records, zones) };
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('Address already in use')) throw error;
    }
  }
}

export async function startDnsmasq(records: TxtRecord[], { zones = ['test'], port: chosen }: DnsmasqOptions = {}): Promise<Dnsmasq> {
  const { port, child: first } = chosen === undefined ? await launchOnFreePort(records, zones) : { port: chosen, child: await launch(chosen, records, zones) };
  let child = first;
  return {
    address: `127.0.0.1:${port}`,
    async setRecords(next) {
      await stopChild(child);
      child = await launch(port, next, zones);
    },
    stop: () => stopChild(child),
  };
}
