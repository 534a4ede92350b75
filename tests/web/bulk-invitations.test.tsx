// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver } from '#tests/helpers/jsdom.ts';
import type { Department, Team } from '#shared/schemas/api/organisation.ts';
import { system } from '#web/components/ui/provider.tsx';
import { invitationsApi } from '#web/features/invitations/api/invitations-api.ts';
import { BulkInvitations } from '#web/features/invitations/components/bulk-invitations.tsx';
import type { Job, JobResult } from '#shared/schemas/api/jobs.ts';
import { queuedJob } from '#tests/helpers/fixtures.ts';

// The job the send starts (docs/jobs.md): it runs on the server; here it is seen queued, running, then done.
const queued: Job = queuedJob('BULK_INVITATIONS', { total: 2 });
const jobResults: JobResult[] = [
  { seq: 1, subject: 'jordan@x.test', outcome: 'SUCCEEDED', code: null, reason: null, ref: 'job-1.1' },
  {
    seq: 2,
    subject: 'sam@x.test',
    outcome: 'REFUSED',
    code: 'EMAIL_ALREADY_INVITED',
    reason: 'This email address already has a pending invitation.',
    ref: null,
  },
];
vi.mock('#web/lib/jobs.ts', () => ({
  followJob: async (job: Job, onUpdate: (j: Job) => void) => {
    onUpdate(job);
    onUpdate({ ...job, status: 'RUNNING', processed: 1, succeeded: 1 });
    const ended: Job = {
      ...job,
      status: 'SUCCEEDED',
      processed: 2,
      succeeded: 1,
      failed: 1,
      finishedAt: job.createdAt,
    };
    onUpdate(ended);
    return ended;
  },
  fetchAllJobResults: async () => jobResults,
}));

beforeEach(stubResizeObserver);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const departments = [{ id: 'd1', name: 'Radiology' }] as Department[];
const teams = [{ id: 't1', name: 'Neuroradiology', departmentId: 'd1' }] as Team[];
const CSV = [
  'name,email,role,department,team',
  'Jordan Lee,jordan@x.test,team_lead,radiology,neuroradiology',
  'Sam Rivera,sam@x.test,guest,,',
].join('\n');

function renderBulk(onSent = vi.fn()) {
  render(
    <ChakraProvider value={system}>
      <BulkInvitations departments={departments} teams={teams} onSent={onSent} />
    </ChakraProvider>,
  );
  return onSent;
}

async function dropCsv(text: string, name = 'staff.csv') {
  fireEvent.change(screen.getByTestId('csv-input'), {
    target: { files: [new File([text], name, { type: 'text/csv' })] },
  });
  await screen.findByText(name);
}

describe('Bulk Invitations', () => {
  it("replaces the rows with the CSV, names resolved, sends them once valid and shows the job's progress and refusals", async () => {
    const sendBulk = vi.spyOn(invitationsApi, 'sendBulk').mockResolvedValue({ jobId: queued.id, job: queued });
    const onSent = renderBulk();
    expect(screen.getAllByTestId('bulk-row')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Send 0 Invites' })).toHaveProperty('disabled', true);

    await dropCsv(CSV);
    expect(screen.getAllByTestId('bulk-row')).toHaveLength(2);
    expect(screen.getByLabelText<HTMLInputElement>('Email address, row 2').value).toBe('sam@x.test');

    fireEvent.click(screen.getByRole('button', { name: 'Validate All' }));
    expect(screen.getByTestId('bulk-summary').textContent).toBe('Valid: 2Errors: 0Duplicates: 0');

    fireEvent.click(screen.getByRole('button', { name: 'Send 2 Invites' }));
    await waitFor(() => expect(onSent).toHaveBeenCalled());
    expect(sendBulk.mock.calls[0]![0]).toEqual({
      mode: 'basic',
      invitations: [
        { fullName: 'Jordan Lee', email: 'jordan@x.test', role: 'team_lead', department: 'd1', team: 't1' },
        { fullName: 'Sam Rivera', email: 'sam@x.test', role: 'guest', department: '', team: '' },
      ],
    });
    // The job's progress shows; the refused row stays, with the catalogue's reason from its result.
    expect(screen.getByTestId('job-progress').getAttribute('data-status')).toBe('SUCCEEDED');
    expect(screen.getByTestId('job-progress').textContent).toContain('Done (2 of 2 processed, 1 done, 1 not done)');
    expect(screen.getAllByTestId('bulk-row')).toHaveLength(1);
    expect(screen.getByLabelText<HTMLInputElement>('Email address, row 1').value).toBe('sam@x.test');
    expect(screen.getByText('This email address already has a pending invitation.')).toBeTruthy();
  });

  it("shows the CSV's problems, duplicates a row without its e-mail, and Clear All starts over", async () => {
    renderBulk();
    await dropCsv('name,email\nA,a@x.test', 'short.csv');
    expect(screen.getByRole('alert').textContent).toContain('Missing headers: role, department, team');
    expect(screen.getAllByTestId('bulk-row')).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('Email address, row 1'), { target: { value: 'a@x.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Duplicate row 1' }));
    expect(screen.getAllByTestId('bulk-row')).toHaveLength(2);
    expect(screen.getByLabelText<HTMLInputElement>('Email address, row 2').value).toBe('');

    fireEvent.click(screen.getByRole('button', { name: 'Validate All' }));
    expect(screen.getByTestId('bulk-summary')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(screen.getAllByTestId('bulk-row')).toHaveLength(1);
    expect(screen.queryByTestId('bulk-summary')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Drag and drop a CSV file here, or click to choose one')).toBeTruthy();
  });
});
