import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** How a command ended. */
export interface CommandRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to the end and returns how it ended; a missing program fails with one line saying what to install. */
export async function runCommand(
  file: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv },
): Promise<CommandRun> {
  try {
    const { stdout, stderr } = await exec(file, [...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number | string; stdout?: string; stderr?: string };
    if (failed.code === 'ENOENT') throw new Error(`the packaging tests need ${file} on PATH: install Node.js (with npm) and git`);
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? String(error) };
  }
}

/** This process's environment without what an enclosing `npm run` adds (its prefix, its command), keeping the cache and registry settings. */
export function npmEnv(): NodeJS.ProcessEnv {
  const keep = /^npm_config_(cache|userconfig|globalconfig|cafile|registry|proxy|https_proxy|noproxy|strict_ssl)$/i;
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || keep.test(key)));
}
