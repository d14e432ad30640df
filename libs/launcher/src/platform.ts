import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { loopbackUrl } from '@platform/config';
import { launchKeys, launchPorts, loopbackUrls, processEnv, sharedEnv } from './launch-env';
import type { ExtraInstance, LaunchOptions, Platform } from './platform.types';
import { freePort } from './ports';
import { startProcess, waitUntilReady, type ManagedProcess } from './process';
import { PROCESSES, platformQueues, type ProcessName } from './processes';
import { processSet } from './process-set';

const run = promisify(execFile);

/** dist/ of the repository the command runs from (npm scripts and Nx run at the root). */
export const defaultDistDir = () => path.resolve(process.cwd(), 'dist');

/** Runs the gateway's admin CLI of distDir with --json in env and returns its one JSON object. */
export async function runAdmin<T = Record<string, unknown>>(
  distDir: string,
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    [path.join(distDir, 'apps', 'gateway', 'admin.js'), ...args, '--json'],
    { env },
  );
  return JSON.parse(stdout) as T;
}

/** Runs every service as its own process on this machine, wired together through env. */
export async function launchPlatform(options: LaunchOptions): Promise<Platform> {
  const distDir = options.distDir ?? process.env.PLATFORM_DIST_DIR ?? defaultDistDir();
  const source = options.inheritEnv ? process.env : {};
  const keys = launchKeys({ ...source, ...options.env });
  const ports = await launchPorts(options.fixedPorts);
  const urls = loopbackUrls(ports.ports);
  const adminUrls = loopbackUrls(ports.adminPorts);
  const env = sharedEnv(options, source, keys, ports, urls);
  const envOf = processEnv(env, keys);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { processes, start, stop, queues: declared } = processSet({ distDir, adminUrls, envOf, launch: options, log });
  // What the services named, and the default consumer queues of each in case one never got to say.
  const queues = () => [
    ...new Set([...(env.EVENTS_EXCHANGE ? platformQueues(env.EVENTS_EXCHANGE) : []), ...declared()]),
  ];
  try {
    // Services first (they migrate their own schemas), the gateway last.
    await Promise.all(PROCESSES.filter((s) => s.name !== 'gateway').map((s) => start(s.name)));
    await start('gateway');
  } catch (err) {
    await stop();
    throw err;
  }
  const extras = extraInstances(distDir, envOf, options);
  const stopAll = async () => {
    await extras.stop();
    await stop();
  };
  return {
    urls,
    adminUrls,
    env,
    keys,
    processes,
    start,
    startInstance: extras.start,
    stop: stopAll,
    queues,
    admin: (...args) => runAdmin(distDir, env, args),
  };
}

/** Further instances of a service, each on ports of its own, not supervised (Platform.startInstance). */
function extraInstances(distDir: string, envOf: (name: ProcessName) => NodeJS.ProcessEnv, options: LaunchOptions) {
  const extras: ManagedProcess[] = [];
  const start = async (name: ProcessName, extraEnv: NodeJS.ProcessEnv = {}): Promise<ExtraInstance> => {
    const service = PROCESSES.find((s) => s.name === name)!;
    const [port, adminPort] = [await freePort(), await freePort()];
    const proc = startProcess({
      name: `${name}#${extras.length + 2}`,
      script: path.join(distDir, 'apps', name, 'main.js'),
      env: {
        ...envOf(name),
        ...options.envFor?.[name],
        ...extraEnv,
        [service.portEnv]: String(port),
        [service.adminPortEnv]: String(adminPort),
      },
      inheritOutput: options.inheritOutput,
      nodeArgs: options.nodeArgs,
    });
    extras.push(proc);
    const adminUrl = loopbackUrl(adminPort);
    await waitUntilReady(proc, `${adminUrl}/health/ready`, options.readyTimeoutMs);
    return { process: proc, url: loopbackUrl(port), adminUrl };
  };
  return { start, stop: async () => void (await Promise.all(extras.map((p) => p.stop()))) };
}
