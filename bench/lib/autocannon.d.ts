// autocannon ships no types; the little of its result the benchmarks read.
declare module 'autocannon' {
  export interface Result {
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    non2xx: number;
    errors: number;
    timeouts: number;
    requests: { average: number };
    latency: { p50: number; p99: number; max: number };
  }
  export interface Options {
    url: string;
    connections: number;
    duration?: number;
    amount?: number;
    followRedirect?: boolean;
    headers?: Record<string, string>;
    /** Cycled per connection; setupRequest may rewrite each request before it is sent. */
    requests?: Array<{
      path?: string;
      setupRequest?: (request: { headers?: Record<string, string> }) => { headers?: Record<string, string> };
    }>;
  }
  /** With a callback: the running instance, which stop() ends early (the callback still gets the result). */
  function autocannon(options: Options, done: (error: Error | null, result: Result) => void): { stop(): void };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
