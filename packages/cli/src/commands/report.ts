import { parseRunRecordText, renderReport } from '@conclave/report';
import { redactDeep, secretValuesFrom } from '@conclave/taskloop/security';
import type { CommandContext, CommandOutcome } from '../command.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { readInput } from '../inputs.js';
import { refuseOverwritingInput, writeOutput } from '../run-files.js';

export interface ReportFlags {
  /** The HTML file (`-o, --out`, the one spelling every command uses). */
  readonly out?: string;
}

/** `conclave report <run.json> -o report.html`: one self-contained HTML file for any run record. */
export async function reportCommand(ctx: CommandContext, file: string, flags: ReportFlags): Promise<CommandOutcome> {
  const output = flags.out ?? file.replace(/\.json$/i, '') + '.html';
  refuseOverwritingInput(ctx.io.cwd, output, file);
  const parsed = parseRunRecordText(await readInput(ctx.io.cwd, file, 'run record'), file);
  // The report package's issues carry file, line, column, path and fix: printed like every other
  // input error. Their path is already text (`parts[1].result`), so it stands as one segment.
  if (parsed.isErr())
    throw new CliError(
      `${file}: not a readable run record`,
      parsed.error.issues.map(({ path, ...issue }) => ({ code: 'invalid_run_record', ...issue, path: path === '' ? [] : [path] })),
    );
  const record = parsed.value;
  // Whatever wrote the record, no secret of this environment and no known format reaches the HTML.
  const path = await writeOutput(ctx.io.cwd, output, renderReport(redactDeep(record, secretValuesFrom(ctx.io.env))));
  ctx.progress.event(`report ${record.kind} → ${path}`);
  const text = `conclave report: offline (renders a file; no model is called)\nreport: ${path} (${record.kind}${record.offline ? ', an offline run' : ''})`;
  return {
    exitCode: EXIT.ok,
    text,
    json: {
      command: 'report',
      exitCode: EXIT.ok,
      offline: true,
      kind: record.kind,
      recordOffline: record.offline,
      out: path,
    },
  };
}
