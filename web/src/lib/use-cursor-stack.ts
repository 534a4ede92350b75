import { useCallback, useEffect, useState } from 'react';

/**
 * Previous/Next paging over an opaque `nextToken`: the token of every page reached is kept, and the stack starts
 * over whenever `resetKey` (the filters) changes.
 */
export function useCursorStack(resetKey: string) {
  const [tokens, setTokens] = useState<(string | undefined)[]>([undefined]);
  useEffect(() => setTokens([undefined]), [resetKey]);
  const page = tokens.length - 1;
  const next = useCallback((token: string | null | undefined) => {
    if (token) setTokens((t) => [...t, token]);
  }, []);
  const previous = useCallback(() => setTokens((t) => (t.length > 1 ? t.slice(0, -1) : t)), []);
  return { token: tokens[page], page, hasPrevious: page > 0, next, previous };
}
