/** The names of an invocation's steps whose results Restate has journaled, read through the admin API's SQL introspection. */
export async function journaledStepNames(adminUrl: string, invocationId: string): Promise<Set<string>> {
  const response = await fetch(`${adminUrl}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      query: `SELECT entry_type, name, entry_lite_json FROM sys_journal WHERE id = '${invocationId}' ORDER BY index`,
    }),
  });
  if (!response.ok) throw new Error(`the journal query failed: HTTP ${response.status} ${await response.text()}`);
  const { rows } = (await response.json()) as { rows: { entry_type: string; name?: string; entry_lite_json: string }[] };
  // A step is a Run command naming its completion id; its result is journaled once a Run notification carries that id.
  const names = new Map<number, string>();
  const completed = new Set<number>();
  for (const row of rows) {
    const entry = JSON.parse(row.entry_lite_json) as {
      Command?: { Run?: { completion_id: number } };
      Notification?: { id?: { CompletionId?: number } };
    };
    const run = entry.Command?.Run;
    if (run !== undefined && row.name !== undefined) names.set(run.completion_id, row.name);
    const done = entry.Notification?.id?.CompletionId;
    if (row.entry_type === 'Notification: Run' && done !== undefined) completed.add(done);
  }
  return new Set([...names].filter(([id]) => completed.has(id)).map(([, name]) => name));
}
