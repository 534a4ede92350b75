import { Button, HStack, Input } from '@chakra-ui/react';
import { useState } from 'react';
import useSWRInfinite from 'swr/infinite';
import type { z } from 'zod';
import type { pageOf } from '#shared/schemas/api/common.ts';
import { Select } from '#web/components/ui/select.tsx';
import { apiRequest } from '#web/lib/api-client.ts';
import { useDebouncedValue } from '#web/lib/use-debounced-value.ts';

type Option = { value: string; label: string };
type PageSchema<T extends z.ZodTypeAny> = ReturnType<typeof pageOf<T>>;

type Props<T extends z.ZodTypeAny> = {
  /** The control's accessible name; the search box and the "More" button are named after it. */
  label: string;
  value: string;
  onChange(value: string): void;
  /** A list route that pages (`limit`, `nextToken`) and, where `searchable`, takes `q`. */
  path: string;
  schema: PageSchema<T>;
  /** Fixed query parameters (a hospital, a status). */
  query?: Record<string, string>;
  searchable?: boolean;
  toOption(item: z.infer<T>): Option | null;
  placeholder?: string;
  /** The chosen item's label when it may not be on the pages read so far (a team's lead, say). */
  selectedLabel?: string | null;
  width?: string;
  disabled?: boolean;
};

/** Items a page of a picker asks for: enough to choose from, never the whole hospital (docs/screens.md#pickers). */
export const PICKER_PAGE_SIZE = 25;

/**
 * A picker over a list that can be as large as the hospital: it reads one page from the server, searches there
 * (never in the browser over a first page), and reads the next page on "More".
 */
export function SearchSelect<T extends z.ZodTypeAny>({
  label,
  value,
  onChange,
  path,
  schema,
  query,
  searchable = false,
  toOption,
  placeholder,
  selectedLabel,
  width,
  disabled,
}: Props<T>) {
  const [search, setSearch] = useState('');
  // The last choice's name, kept for when a new search no longer lists it.
  const [picked, setPicked] = useState<Option>();
  const q = useDebouncedValue(search.trim());
  const pages = useSWRInfinite(
    (index, previous: z.infer<PageSchema<T>> | null) => {
      if (index > 0 && !previous?.nextToken) return null;
      return [path, 'picker', JSON.stringify(query ?? {}), q, index > 0 ? previous!.nextToken : ''] as const;
    },
    ([, , , search, nextToken]) =>
      apiRequest(path, schema, {
        query: {
          ...query,
          limit: PICKER_PAGE_SIZE,
          ...(search ? { q: search } : {}),
          ...(nextToken ? { nextToken } : {}),
        },
      }),
  );
  const options = (pages.data ?? []).flatMap((page) => page.items.map(toOption).filter((o) => o !== null));
  if (value && !options.some((o) => o.value === value)) {
    const known = picked?.value === value ? picked.label : selectedLabel;
    options.unshift({ value, label: known ?? (pages.isLoading ? 'Loading…' : value) });
  }
  const last = pages.data?.at(-1);

  return (
    <HStack gap="2" width={width} align="stretch">
      {searchable && (
        <Input
          aria-label={`Search ${label}`}
          placeholder="Search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          maxLength={100}
          width="40%"
          disabled={disabled}
        />
      )}
      <Select
        aria-label={label}
        value={value}
        onChange={(chosen) => {
          setPicked(options.find((o) => o.value === chosen));
          onChange(chosen);
        }}
        options={options}
        placeholder={placeholder}
        disabled={disabled}
      />
      {last?.nextToken && (
        <Button
          variant="outline"
          aria-label={`More ${label} choices`}
          loading={pages.isValidating}
          onClick={() => void pages.setSize(pages.size + 1)}
        >
          More
        </Button>
      )}
    </HStack>
  );
}
