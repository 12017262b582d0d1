// Minimal types for the parts of autocannon the benchmark uses (the package ships none).
declare module 'autocannon' {
  interface Histogram { average: number; mean: number; stddev: number; min: number; max: number; total: number; p50: number; p90: number; p97_5: number; p99: number; p99_9: number }
  interface RawRequest { method?: string; path?: string; headers?: Record<string, string>; body?: string }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: Array<{ method?: string; path?: string; setupRequest?: (req: RawRequest, context: Record<string, unknown>) => RawRequest; onResponse?: (status: number, body: string, context: Record<string, unknown>) => void }>;
    timeout?: number;
  }
  export interface Result { requests: Histogram; latency: Histogram; throughput: Histogram; duration: number; errors: number; timeouts: number; non2xx: number; '2xx': number }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
