import { useCallback, useState } from 'react';

/**
 * Previous/Next paging over an opaque `nextToken`: the token of every page reached is kept, and the stack starts
 * over as soon as `resetKey` (the filters) changes, so a token is never sent with filters it was not issued for.
 */
export function useCursorStack(resetKey: string) {
  const [state, setState] = useState<{ key: string; tokens: (string | undefined)[] }>({
    key: resetKey,
    tokens: [undefined],
  });
  const tokens = state.key === resetKey ? state.tokens : [undefined];
  const page = tokens.length - 1;
  const next = useCallback(
    (token: string | null | undefined) => {
      if (!token) return;
      setState((s) => ({ key: resetKey, tokens: [...(s.key === resetKey ? s.tokens : [undefined]), token] }));
    },
    [resetKey],
  );
  const previous = useCallback(
    () =>
      setState((s) => {
        const current = s.key === resetKey ? s.tokens : [undefined];
        return { key: resetKey, tokens: current.length > 1 ? current.slice(0, -1) : current };
      }),
    [resetKey],
  );
  return { token: tokens[page], page, hasPrevious: page > 0, next, previous };
}
