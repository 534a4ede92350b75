import { Box, Center, Spinner, Table, type BoxProps } from '@chakra-ui/react';
import type { Key, ReactNode } from 'react';

/** One column: its header and how a row fills its cell. */
export type DataTableColumn<T> = {
  /** Unique among the columns (React's key for the header and the cells). */
  key: string;
  /** The column header; leave it out for an unlabelled column (a row's action buttons). */
  header?: ReactNode;
  cell(row: T, index: number): ReactNode;
  width?: Table.ColumnHeaderProps['width'];
  align?: 'start' | 'center' | 'end';
  /** Styles of every cell of the column (no wrapping, a maximum width, a weight). */
  cellProps?: Table.CellProps;
  headerProps?: Table.ColumnHeaderProps;
};

/** A row's props: styles and the data-* attributes tests and styles read (data-testid, data-status...). */
export type DataTableRowProps = Table.RowProps & { [attribute: `data-${string}`]: string | undefined };

export type DataTableProps<T> = {
  /** The table's accessible name (tests find tables by it). */
  'aria-label': string;
  columns: readonly DataTableColumn<T>[];
  /** Undefined while the first page loads. */
  rows: readonly T[] | undefined;
  rowKey(row: T, index: number): Key;
  rowProps?(row: T, index: number): DataTableRowProps;
  /** Marks the table busy; with no rows yet, a spinner fills the body. */
  loading?: boolean;
  /** Shown in place of the table when there are no rows (and none are loading); without it, the headers stay. */
  empty?: ReactNode;
  /** A list without a header row (the cells say what they are). */
  hideHeader?: boolean;
  /** Below the table, also while it is empty: the list's Previous/Next (a CursorPager over useCursorStack). */
  pagination?: ReactNode;
  /** Wrap the table in Chakra's Table.ScrollArea (cells kept on one line, the table scrolls sideways). */
  scrollArea?: boolean;
  /** Styles of the box around the table (a border, a maximum height, overflow); with scrollArea, of the scroll area. */
  frameProps?: BoxProps;
  size?: Table.RootProps['size'];
  'data-testid'?: string;
};

/**
 * The site's tables: typed columns over a list of rows, with the list's empty and loading states and its pager, so
 * every list is built, labelled and tested the same way.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  loading = false,
  empty,
  hideHeader = false,
  pagination,
  scrollArea = false,
  frameProps,
  size = 'sm',
  ...attributes
}: DataTableProps<T>) {
  const items = rows ?? [];
  if (items.length === 0 && !loading && empty !== undefined)
    return (
      <>
        {empty}
        {pagination}
      </>
    );

  const table = (
    <Table.Root size={size} aria-busy={loading || undefined} {...attributes}>
      {!hideHeader && (
        <Table.Header>
          <Table.Row>
            {columns.map((c) => (
              <Table.ColumnHeader key={c.key} width={c.width} textAlign={c.align} {...c.headerProps}>
                {c.header}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
      )}
      <Table.Body>
        {loading && items.length === 0 ? (
          <Table.Row>
            <Table.Cell colSpan={columns.length}>
              <Center py="4" role="status" aria-label="Loading">
                <Spinner size="sm" />
              </Center>
            </Table.Cell>
          </Table.Row>
        ) : (
          items.map((row, index) => (
            <Table.Row key={rowKey(row, index)} {...rowProps?.(row, index)}>
              {columns.map((c) => (
                <Table.Cell key={c.key} width={c.width} textAlign={c.align} {...c.cellProps}>
                  {c.cell(row, index)}
                </Table.Cell>
              ))}
            </Table.Row>
          ))
        )}
      </Table.Body>
    </Table.Root>
  );

  return (
    <>
      {scrollArea ? (
        <Table.ScrollArea tabIndex={0} role="region" aria-label={attributes['aria-label']} {...frameProps}>
          {table}
        </Table.ScrollArea>
      ) : frameProps ? (
        // A frame that scrolls is reachable by keyboard, so its overflow can be scrolled without a mouse (WCAG 2.1.1).
        <Box tabIndex={0} role="region" aria-label={attributes['aria-label']} {...frameProps}>
          {table}
        </Box>
      ) : (
        table
      )}
      {pagination}
    </>
  );
}
