import { Heading, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { EmptyBlock } from '#web/components/ui/page-states.tsx';

/**
 * A page whose feature is built by its own issue: its title and what it is for, so the route leads somewhere honest
 * until the app layer mounts the feature there (docs/screens.md#route-table).
 */
export function PagePurpose({ title, icon, summary }: { title: string; icon: ReactNode; summary: string }) {
  return (
    <Stack gap="6">
      <Heading size="2xl">{title}</Heading>
      <EmptyBlock icon={icon} title={`Nothing to show in ${title} yet`} description={summary} />
    </Stack>
  );
}
