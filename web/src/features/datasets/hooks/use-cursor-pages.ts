import { useCallback, useEffect, useState } from 'react';
import { getDatasets, useDatasets, type DatasetListParams } from '#web/features/datasets/api/get-datasets.ts';

/**
 * Page numbers over the API's opaque `nextToken` cursor: the token of each page reached is remembered, and a
 * jump ahead (End, a far page number) walks the cursor to get there.
 */
export function useCursorPages(filters: { status?: DatasetListParams['status']; search?: string; limit: number }) {
  const [tokens, setTokens] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState(0);
  const [walking, setWalking] = useState(false);
  const [lastPage, setLastPage] = useState<number>();
  const filterKey = `${filters.status ?? ''}|${filters.search ?? ''}|${filters.limit}`;

  useEffect(() => {
    setTokens([undefined]);
    setPage(0);
    setLastPage(undefined);
  }, [filterKey]);

  const query = useDatasets({ ...filters, nextToken: tokens[page] });
  const data = query.data;

  useEffect(() => {
    if (!data) return;
    if (data.nextToken) {
      setTokens((t) => (t[page + 1] === data.nextToken ? t : Object.assign([...t], { [page + 1]: data.nextToken })));
    } else {
      setLastPage(page);
    }
  }, [data, page]);

  const total = data?.total;
  const pageCount =
    total !== undefined
      ? Math.max(1, Math.ceil(total / filters.limit))
      : lastPage !== undefined
        ? lastPage + 1
        : tokens.length;

  const goTo = useCallback(
    async (target: number | 'last') => {
      const wanted = target === 'last' ? Number.POSITIVE_INFINITY : target;
      if (wanted < tokens.length && wanted !== Number.POSITIVE_INFINITY) return setPage(Math.max(0, wanted));
      if (lastPage !== undefined && wanted >= lastPage) return setPage(lastPage);
      setWalking(true);
      try {
        const known = [...tokens];
        let index = known.length - 1;
        while (index < wanted) {
          const result = await getDatasets({ ...filters, nextToken: known[index] });
          if (!result.nextToken) {
            setLastPage(index);
            break;
          }
          known[index + 1] = result.nextToken;
          index++;
        }
        setTokens(known);
        setPage(Math.min(index, wanted));
      } finally {
        setWalking(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [tokens, lastPage, filterKey],
  );

  return { ...query, page, pageCount, hasNext: !!data?.nextToken, goTo, walking, lastPage };
}
