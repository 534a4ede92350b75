// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { pageOf } from '#shared/schemas/api/common.ts';
import { PICKER_PAGE_SIZE, SearchSelect } from '#web/components/ui/search-select.tsx';
import { system } from '#web/components/ui/provider.tsx';
import { setTestRuntimeConfig } from '#tests/helpers/jsdom.ts';

/** A hospital list of the API's shape: pages of two, `q` matching a name's start. */
const NAMES = ['Northside', 'Northgate', 'Southside', 'Eastview', 'Westbrook'];
const hospital = (name: string) => ({ id: `h-${name.toLowerCase()}`, name });
const HospitalChoicePageSchema = pageOf(z.object({ id: z.string(), name: z.string() }));
const requested: URL[] = [];

beforeEach(() => {
  requested.length = 0;
  setTestRuntimeConfig('local');
  vi.stubGlobal('fetch', async (url: string) => {
    const u = new URL(url);
    requested.push(u);
    const q = (u.searchParams.get('q') ?? '').toLowerCase();
    const matching = NAMES.filter((n) => n.toLowerCase().startsWith(q));
    const start = Number(u.searchParams.get('nextToken') ?? 0);
    const items = matching.slice(start, start + 2).map(hospital);
    const nextToken = start + 2 < matching.length ? String(start + 2) : null;
    return new Response(JSON.stringify({ items, nextToken }), { status: 200 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Picker() {
  const [value, setValue] = useState('');
  return (
    <SearchSelect
      label="Hospital"
      path="/api/hospitals"
      schema={HospitalChoicePageSchema}
      searchable
      value={value}
      onChange={setValue}
      placeholder="Choose"
      toOption={(h) => ({ value: h.id, label: h.name })}
    />
  );
}

const optionLabels = () =>
  Array.from((screen.getByLabelText('Hospital') as HTMLSelectElement).options).map((o) => o.textContent);

describe('SearchSelect', () => {
  it('reads one page, the next on "More", and searches on the server', async () => {
    // Prepare
    render(
      <ChakraProvider value={system}>
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <Picker />
        </SWRConfig>
      </ChakraProvider>,
    );
    await waitFor(() => expect(optionLabels()).toEqual(['Choose', 'Northside', 'Northgate']));

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'More Hospital choices' }));
    await waitFor(() => expect(optionLabels()).toEqual(['Choose', 'Northside', 'Northgate', 'Southside', 'Eastview']));
    fireEvent.change(screen.getByLabelText('Search Hospital'), { target: { value: 'north' } });

    // Assess
    await waitFor(() => expect(optionLabels()).toEqual(['Choose', 'Northside', 'Northgate']), { timeout: 3_000 });
    expect(screen.queryByRole('button', { name: 'More Hospital choices' })).toBeNull();
    const queries = requested.map((u) => Object.fromEntries(u.searchParams));
    expect(queries).toContainEqual({ limit: String(PICKER_PAGE_SIZE), nextToken: '2' });
    expect(queries).toContainEqual({ limit: String(PICKER_PAGE_SIZE), q: 'north' });
    expect(queries.every((q) => Number(q.limit) <= PICKER_PAGE_SIZE)).toBe(true);
  });
});
