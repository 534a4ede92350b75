// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable, type DataTableColumn } from '#web/components/ui/data-table.tsx';
import { system } from '#web/components/ui/provider.tsx';

type Fruit = { id: string; name: string; count: number };
const FRUITS: Fruit[] = [
  { id: 'a', name: 'Apple', count: 3 },
  { id: 'b', name: 'Banana', count: 12 },
];
const COLUMNS: DataTableColumn<Fruit>[] = [
  { key: 'name', header: 'Name', cell: (f) => f.name },
  { key: 'count', header: 'Count', cell: (f) => f.count, align: 'end' },
  {
    key: 'actions',
    cell: (f, i) => (
      <button type="button">
        Eat {f.name} (row {i + 1})
      </button>
    ),
  },
];

const show = (ui: ReactNode) => render(<ChakraProvider value={system}>{ui}</ChakraProvider>);

describe('DataTable', () => {
  afterEach(cleanup);

  it('renders the headers, then one row per item with its cells, named by its label', () => {
    show(
      <DataTable
        aria-label="Fruits"
        columns={COLUMNS}
        rows={FRUITS}
        rowKey={(f) => f.id}
        rowProps={(f) => ({ 'data-testid': 'fruit-row', 'data-fruit': f.id })}
      />,
    );
    const table = screen.getByRole('table', { name: 'Fruits' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['Name', 'Count', '']);
    const rows = screen.getAllByTestId('fruit-row');
    expect(rows.map((r) => r.getAttribute('data-fruit'))).toEqual(['a', 'b']);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Banana', '12', 'Eat Banana (row 2)']);
    expect(table.getAttribute('aria-busy')).toBeNull();
  });

  it('leaves the header row out of a headerless list', () => {
    show(<DataTable aria-label="Fruits" hideHeader columns={COLUMNS} rows={FRUITS} rowKey={(f) => f.id} />);
    expect(screen.queryAllByRole('columnheader')).toHaveLength(0);
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2);
  });

  it('shows the empty state in place of the table, and keeps the pager', () => {
    show(
      <DataTable
        aria-label="Fruits"
        columns={COLUMNS}
        rows={[]}
        rowKey={(f) => f.id}
        empty={<p>No fruit yet</p>}
        pagination={<nav aria-label="Pagination">Page 2</nav>}
      />,
    );
    expect(screen.getByText('No fruit yet')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toBeTruthy();
  });

  it('keeps the headers of an empty table that has no empty state', () => {
    show(<DataTable aria-label="Fruits" columns={COLUMNS} rows={[]} rowKey={(f) => f.id} />);
    const table = screen.getByRole('table', { name: 'Fruits' });
    expect(within(table).getAllByRole('row')).toHaveLength(1);
    expect(within(table).getAllByRole('columnheader')).toHaveLength(3);
  });

  it('is busy while loading: a spinner spans the body until rows arrive, the empty state waits', () => {
    const loading = show(
      <DataTable
        aria-label="Fruits"
        columns={COLUMNS}
        rows={undefined}
        rowKey={(f) => f.id}
        loading
        empty={<p>No fruit yet</p>}
      />,
    );
    const table = screen.getByRole('table', { name: 'Fruits' });
    expect(table.getAttribute('aria-busy')).toBe('true');
    const status = within(table).getByRole('status', { name: 'Loading' });
    expect(status.closest('td')?.getAttribute('colspan')).toBe('3');
    expect(screen.queryByText('No fruit yet')).toBeNull();
    loading.unmount();

    // A later page loading keeps the rows it shows.
    show(<DataTable aria-label="Fruits" columns={COLUMNS} rows={FRUITS} rowKey={(f) => f.id} loading />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText('Apple')).toBeTruthy();
  });

  it('wraps the table in the frame it is given', () => {
    show(
      <DataTable
        aria-label="Fruits"
        data-testid="fruits"
        columns={COLUMNS}
        rows={FRUITS}
        rowKey={(f) => f.id}
        frameProps={{ maxH: '40', overflowY: 'auto' }}
      />,
    );
    expect(screen.getByTestId('fruits').tagName).toBe('TABLE');
    expect(screen.getByTestId('fruits').parentElement?.tagName).toBe('DIV');
  });
});
