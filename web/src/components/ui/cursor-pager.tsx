import { Button, HStack, Text } from '@chakra-ui/react';

type Props = {
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious(): void;
  onNext(): void;
  total?: number;
};

/** Previous / Next over a cursor-paginated list (the API's opaque nextToken), with the page number reached. */
export function CursorPager({ page, hasPrevious, hasNext, onPrevious, onNext, total }: Props) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <HStack justify="space-between" aria-label="Pagination">
      <Text fontSize="sm" color="fg.muted">
        Page {page + 1}
        {total !== undefined ? ` · ${total} in all` : ''}
      </Text>
      <HStack>
        <Button size="sm" variant="outline" disabled={!hasPrevious} onClick={onPrevious}>
          Previous
        </Button>
        <Button size="sm" variant="outline" disabled={!hasNext} onClick={onNext}>
          Next
        </Button>
      </HStack>
    </HStack>
  );
}
