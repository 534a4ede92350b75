// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InvitationList } from '#shared/schemas/api/invitations.ts';
import type { Department, Team } from '#shared/schemas/api/organisation.ts';
import { system } from '#web/components/ui/provider.tsx';
import { PendingInvitations } from '#web/features/invitations/components/pending-invitations.tsx';
import { SingleInvitationForm } from '#web/features/invitations/components/single-invitation-form.tsx';
import { invitationFixture } from '#tests/helpers/fixtures.ts';

afterEach(cleanup);

const base = invitationFixture();
const list: InvitationList = {
  items: [
    base,
    {
      ...base,
      id: 'i2',
      email: 'bo@x.test',
      fullName: 'Bo Chen',
      department: 'Neurology',
      listStatus: 'expired',
      status: 'EXPIRED',
    },
    { ...base, id: 'i3', email: 'cy@x.test', fullName: 'Cy Dee', listStatus: 'accepted', status: 'ACCEPTED' },
  ],
  counts: { all: 3, pending: 0, sent: 1, accepted: 1, expired: 1 },
  nextToken: null,
};

const wrap = (ui: React.ReactNode) => render(<ChakraProvider value={system}>{ui}</ChakraProvider>);

describe('the Pending tab', () => {
  it('filters by status with counts, searches name, e-mail and department, and says how many it shows', () => {
    wrap(<PendingInvitations list={list} onChanged={vi.fn()} onRefresh={vi.fn()} />);
    expect(screen.getByTestId('invitations-shown').textContent).toBe('Showing 3 of 3 invitations');
    expect(screen.getByLabelText('Search invitations').getAttribute('placeholder')).toBe(
      'Search by name, email or department',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Expired (1)' }));
    expect(screen.getByTestId('invitations-shown').textContent).toBe('Showing 1 of 3 invitations');
    const row = within(screen.getByRole('table')).getByText('Bo Chen').closest('tr')!;
    expect(within(row).getByRole('button', { name: 'Resend' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    fireEvent.change(screen.getByLabelText('Search invitations'), { target: { value: 'radiology' } });
    expect(screen.getByTestId('invitations-shown').textContent).toBe('Showing 2 of 3 invitations');
    const accepted = within(screen.getByRole('table')).getByText('Cy Dee').closest('tr')!;
    expect(within(accepted).queryByRole('button', { name: 'Resend' })).toBeNull();
    expect(within(accepted).queryByRole('button', { name: 'Cancel' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Search invitations'), { target: { value: 'nobody' } });
    expect(screen.getByText('No matching invitations')).toBeTruthy();
  });

  it("says how many the hospital has beyond the page loaded, loads the next page, and asks for a filter's status", () => {
    // Arrange: the first page of three of ten invitations.
    const onLoadMore = vi.fn();
    const onFilterChange = vi.fn();
    wrap(
      <PendingInvitations
        list={{ ...list, counts: { ...list.counts, all: 10, accepted: 8 }, nextToken: 'next' }}
        onChanged={vi.fn()}
        onRefresh={vi.fn()}
        onLoadMore={onLoadMore}
        onFilterChange={onFilterChange}
      />,
    );

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    fireEvent.click(screen.getByRole('button', { name: 'Accepted (8)' }));

    // Assert
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    // The list is asked for that status alone; meanwhile the rows loaded are filtered.
    expect(onFilterChange).toHaveBeenCalledWith('accepted');
    expect(screen.getByTestId('invitations-shown').textContent).toBe('Showing 1 of 10 invitations');
    // The search covers the rows loaded, and says so while older ones are left.
    expect(screen.getByLabelText('Search invitations').getAttribute('placeholder')).toBe(
      'Search the loaded invitations by name, email or department',
    );
  });

  it('shows its empty state with no invitations', () => {
    wrap(
      <PendingInvitations
        list={{ items: [], counts: { all: 0, pending: 0, sent: 0, accepted: 0, expired: 0 }, nextToken: null }}
        onChanged={vi.fn()}
        onRefresh={vi.fn()}
      />,
    );
    expect(screen.getByText('No pending invitations')).toBeTruthy();
  });
});

describe('the single invitation form', () => {
  const departments = [
    { id: 'd1', name: 'Radiology' },
    { id: 'd2', name: 'Neurology' },
  ] as Department[];
  const teams = [
    { id: 't1', name: 'Neuroradiology', departmentId: 'd1' },
    { id: 't2', name: 'Stroke Imaging', departmentId: 'd2' },
  ] as Team[];

  it("enables the team only with a department, lists that department's teams, and clears it when the department changes", () => {
    wrap(<SingleInvitationForm departments={departments} teams={teams} onSent={vi.fn()} />);
    const team = screen.getByLabelText('Team') as HTMLSelectElement;
    expect(team.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Department'), { target: { value: 'd1' } });
    expect(team.disabled).toBe(false);
    expect([...team.options].map((o) => o.textContent)).toEqual(['Select team', 'Neuroradiology']);
    fireEvent.change(team, { target: { value: 't1' } });
    expect(team.value).toBe('t1');
    fireEvent.change(screen.getByLabelText('Department'), { target: { value: 'd2' } });
    expect(team.value).toBe('');
  });

  it("shows the form's messages and sends nothing when invalid", async () => {
    wrap(<SingleInvitationForm departments={departments} teams={teams} onSent={vi.fn()} />);
    fireEvent.change(screen.getByRole('textbox', { name: /Full Name/ }), { target: { value: 'A' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Email Address/ }), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Name must be at least 2 characters')).toBeTruthy();
    expect(screen.getByText('Invalid email address')).toBeTruthy();
  });
});
