import type { ManagedProcess } from './process';
import type { ProcessName } from './processes';

export interface LaunchOptions {
  /** Folder holding dist/apps/<name>/main.js; defaults to the repository's dist/. */
  distDir?: string;
  databaseUrl: string;
  amqpUrl: string;
  /** Fixed ports (npm start, from the *_PORT variables or the defaults) or ephemeral ones (tests, the default). */
  fixedPorts?: boolean;
  /**
   * Pass this process's whole environment on (npm start: every variable a service reads reaches
   * it). Off (tests): only what the launcher sets and `env`, so a developer's shell cannot change a test.
   */
  inheritEnv?: boolean;
  /** Restart a process that exits on its own, with back-off (npm start). */
  supervise?: boolean;
  /** Extra env for every process, and per process. */
  env?: NodeJS.ProcessEnv;
  envFor?: Partial<Record<ProcessName, NodeJS.ProcessEnv>>;
  inheritOutput?: boolean;
  /** Extra arguments for node itself in every process, e.g. ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] (not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
  /** How long each process may take to answer ready (default 20 s); more for a machine that is busy on purpose. */
  readyTimeoutMs?: number;
  /** Where supervision reports (default: stderr). */
  log?: (line: string) => void;
}

export interface Platform {
  urls: Record<ProcessName, string>;
  /** Each process's admin listener (/health/live, /health/ready, /metrics), on loopback. */
  adminUrls: Record<ProcessName, string>;
  /** The environment shared by every process (no private key in it). */
  env: NodeJS.ProcessEnv;
  /** The key pairs this launch generated (or was given): the gateway's and the services'. */
  keys: {
    gatewayPrivateKey: string;
    gatewayPublicKey: string;
    servicesPrivateKey: string;
    servicesPublicKey: string;
    recordSigningKeys: string;
  };
  processes: Map<ProcessName, ManagedProcess>;
  /** Starts (or starts again) one process with the shared env plus extra; waits until it is ready. */
  start(name: ProcessName, extraEnv?: NodeJS.ProcessEnv): Promise<ManagedProcess>;
  /**
   * Starts one more instance of a service on ports of its own (the shared env plus extra), stopped
   * with the rest; waits until it is ready. Not supervised. For tests of several instances at once.
   */
  startInstance(name: ProcessName, extraEnv?: NodeJS.ProcessEnv): Promise<ExtraInstance>;
  stop(): Promise<void>;
  /** Every broker queue the platform's consumers declared (as their ready answers named them): what a test run deletes when it ends. */
  queues(): string[];
  /** Runs the gateway's admin CLI with --json and returns its one JSON object. */
  admin<T = Record<string, unknown>>(...args: string[]): Promise<T>;
}

/** A further instance of a service (startInstance). */
export interface ExtraInstance {
  process: ManagedProcess;
  url: string;
  adminUrl: string;
}
