import { describe, expect, it } from 'vitest';
import { conclaveClient } from './client.js';

describe('conclaveClient', () => {
  it('refuses a signal or a deadline without the admin URL that cancelling needs, before submitting anything', async () => {
    // Port 9 (discard) on loopback: a submission would fail with a connection error, not this message.
    const client = conclaveClient({ ingressUrl: 'http://127.0.0.1:9' });
    const board = { id: 'b', phases: [] };
    await expect(client.runDebate('x', { board, question: 'q' }, { deadlineMs: 1000 })).rejects.toThrow('pass adminUrl to conclaveClient');
    await expect(client.runMeeting('x', { brief: {} as never }, { signal: new AbortController().signal })).rejects.toThrow(
      'pass adminUrl to conclaveClient',
    );
    await expect(client.runDebate('x', { board, question: 'q' }, { deadlineMs: 0 })).rejects.toThrow(
      'deadlineMs must be a finite number of milliseconds above 0, got 0',
    );
  });
});
