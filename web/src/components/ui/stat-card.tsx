import { Stat } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** One figure of a summary row; `testId` lets tests read the value without depending on layout. */
export function StatCard({
  label,
  value,
  help,
  testId,
}: {
  label: string;
  value: ReactNode;
  help?: string;
  testId?: string;
}) {
  return (
    <Stat.Root borderWidth="1px" rounded="md" p="4" bg="bg.panel">
      <Stat.Label>{label}</Stat.Label>
      <Stat.ValueText data-testid={testId}>{value}</Stat.ValueText>
      {help && <Stat.HelpText as="dd">{help}</Stat.HelpText>}
    </Stat.Root>
  );
}
