import {
  Button,
  ButtonGroup,
  Flex,
  Heading,
  HStack,
  IconButton,
  Input,
  InputGroup,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useCallback, useEffect, useState } from 'react';
import { LuChevronLeft, LuChevronRight, LuDatabase, LuSearch, LuUpload } from 'react-icons/lu';
import { Link, useSearchParams } from 'react-router-dom';
import { hasRole } from '#shared/vocabulary/roles.ts';
import { DatasetStatusSchema } from '#shared/schemas/api/datasets.ts';
import { EmptyBlock, ErrorBox } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { paths } from '#web/config/paths.ts';
import { useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { DatasetCard } from '#web/features/datasets/components/dataset-card.tsx';
import { SharedWithYou } from '#web/features/shares/components/shared-with-you.tsx';
import { useCursorPages } from '#web/features/datasets/hooks/use-cursor-pages.ts';
import { useStatusTransitions, type StatusTransition } from '#web/features/datasets/hooks/use-status-transitions.ts';
import { useNotifications } from '#web/features/notifications/hooks/use-notifications.tsx';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, pageForKey, pageWindow } from '#web/features/datasets/utils/page-window.ts';
import { STATUS_OPTIONS } from '#web/features/datasets/utils/study-types.ts';
import { errorMessage } from '#web/lib/api-error.ts';

/** The datasets page (docs/screens.md#datasets-page). */
export function DatasetsRoute() {
  const { user } = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const statusParam = DatasetStatusSchema.safeParse(params.get('status'));
  const status = statusParam.success ? statusParam.data : undefined;
  const sizeParam = Number(params.get('pageSize'));
  const limit = (PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : DEFAULT_PAGE_SIZE;
  const [searchInput, setSearchInput] = useState(search);

  useEffect(() => setSearchInput(search), [search]);
  useEffect(() => {
    const handle = setTimeout(() => update({ search: searchInput.trim() || undefined }), 350);
    return () => clearTimeout(handle);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchInput]);

  /** Changes query parameters against the URL as it is now (a debounced search must not undo a filter chosen meanwhile). */
  function update(changes: Record<string, string | undefined>) {
    // The live URL, not the render's copy: react-router hands updaters the parameters of the render they came from.
    const current = new URLSearchParams(window.location.search);
    const next = new URLSearchParams(current);
    for (const [key, value] of Object.entries(changes))
      if (value) next.set(key, value);
      else next.delete(key);
    if (next.toString() !== current.toString()) setParams(next, { replace: true });
  }

  const pages = useCursorPages({ status, search: search || undefined, limit });
  const { data, error, isLoading, page, pageCount, goTo, hasNext, lastPage } = pages;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = pageForKey(event, page, lastPage);
      if (target === undefined) return;
      event.preventDefault();
      void goTo(target);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [page, lastPage, goTo]);

  const { notify } = useNotifications();
  const onTransition = useCallback(
    ({ dataset }: StatusTransition) =>
      notify({
        title: dataset.status === 'COMPLETE' ? 'Processing complete' : 'Processing failed',
        description: `${dataset.studyDescription}: ${dataset.status === 'COMPLETE' ? 'Ready for analysis' : (dataset.failureReason ?? 'Processing failed')}`,
        type: dataset.status === 'COMPLETE' ? 'success' : 'error',
        href: paths.dataset.getHref(dataset.id),
      }),
    [notify],
  );
  useStatusTransitions(data?.items, onTransition);

  const hasFilters = !!search || !!status;
  const items = data?.items ?? [];

  return (
    <Stack gap="5">
      <Flex justify="space-between" align="center" wrap="wrap" gap="3">
        <Heading size="2xl">Datasets</Heading>
        {hasRole(user.role, ['TEAM_LEAD', 'TEAM_MEMBER']) && (
          <Button asChild>
            <Link to={paths.upload.getHref()}>
              <LuUpload /> Upload New Dataset
            </Link>
          </Button>
        )}
      </Flex>
      <Flex gap="3" wrap="wrap">
        <InputGroup startElement={<LuSearch />} flex="1" minW="60">
          <Input
            placeholder="Search datasets..."
            aria-label="Search datasets"
            value={searchInput}
            onChange={(e) => setSearchInput(e.target.value)}
          />
        </InputGroup>
        <Select
          aria-label="Status filter"
          width="52"
          value={status ?? ''}
          onChange={(v) => update({ status: v || undefined })}
          placeholder="All statuses"
          options={STATUS_OPTIONS}
        />
      </Flex>
      {error && <ErrorBox message={errorMessage(error)} />}
      {isLoading && !data ? (
        <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} h="48" rounded="lg" />
          ))}
        </SimpleGrid>
      ) : items.length === 0 && !error ? (
        hasFilters ? (
          <EmptyBlock
            icon={<LuSearch />}
            title="No datasets match your filters"
            description="Try adjusting your search criteria or status filter to find datasets."
          >
            <HStack>
              <Button
                variant="outline"
                onClick={() => {
                  setSearchInput('');
                  update({ search: undefined });
                }}
              >
                Clear Search
              </Button>
              <Button
                variant="outline"
                onClick={() => {
                  setSearchInput('');
                  update({ search: undefined, status: undefined });
                }}
              >
                Clear Filters
              </Button>
            </HStack>
          </EmptyBlock>
        ) : (
          <EmptyBlock
            icon={<LuDatabase />}
            title="No datasets found"
            description="Get started by uploading your first DICOM dataset."
          />
        )
      ) : (
        <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4" aria-label="Datasets">
          {items.map((dataset) => (
            <DatasetCard key={dataset.id} dataset={dataset} />
          ))}
        </SimpleGrid>
      )}
      {(items.length > 0 || page > 0) && (
        <Flex justify="space-between" align="center" wrap="wrap" gap="3" as="nav" aria-label="Pagination">
          <HStack>
            <Text fontSize="sm" color="fg.muted">
              Per page
            </Text>
            <Select
              aria-label="Page size"
              size="sm"
              width="20"
              value={String(limit)}
              onChange={(v) => update({ pageSize: v === String(DEFAULT_PAGE_SIZE) ? undefined : v })}
              options={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
            />
            {data?.total !== undefined && (
              <Text fontSize="sm" color="fg.muted">
                {data.total} datasets
              </Text>
            )}
          </HStack>
          <ButtonGroup size="sm" variant="outline" attached={false}>
            <IconButton aria-label="Previous page" disabled={page === 0} onClick={() => void goTo(page - 1)}>
              <LuChevronLeft />
            </IconButton>
            {pageWindow(page, pageCount).map((n) => (
              <Button
                key={n}
                variant={n === page ? 'solid' : 'outline'}
                aria-current={n === page ? 'page' : undefined}
                onClick={() => void goTo(n)}
              >
                {n + 1}
              </Button>
            ))}
            <IconButton aria-label="Next page" disabled={!hasNext} onClick={() => void goTo(page + 1)}>
              <LuChevronRight />
            </IconButton>
          </ButtonGroup>
        </Flex>
      )}
      <SharedWithYou />
    </Stack>
  );
}
