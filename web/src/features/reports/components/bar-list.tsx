import { Box, HStack, Stack, Text } from '@chakra-ui/react';

export type Bar = { label: string; value: number; display?: string };

/**
 * Horizontal bars drawn with Chakra boxes (no chart library is installed): each row reads as text ("label: value") to
 * screen readers, and the bar's length is its share of the largest value.
 */
export function BarList({ bars, label, color = 'blue.solid' }: { bars: Bar[]; label: string; color?: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <Stack gap="2" role="list" aria-label={label}>
      {bars.map((b) => (
        <HStack key={b.label} role="listitem" gap="3" aria-label={`${b.label}: ${b.display ?? b.value}`}>
          <Text minW="20" fontSize="sm" aria-hidden>
            {b.label}
          </Text>
          <Box flex="1" bg="bg.muted" borderRadius="sm" h="3" aria-hidden>
            <Box bg={color} h="100%" borderRadius="sm" width={`${(b.value / max) * 100}%`} />
          </Box>
          <Text minW="16" textAlign="end" fontSize="sm" aria-hidden>
            {b.display ?? b.value}
          </Text>
        </HStack>
      ))}
    </Stack>
  );
}
