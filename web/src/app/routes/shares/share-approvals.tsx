import { Heading, Stack, Text } from '@chakra-ui/react';
import { ShareApprovals } from '#web/features/shares/components/share-approvals.tsx';

/** /shares/approvals (docs/screens.md#share-approvals): the lead's or hospital admin's queue, reached from the bell. */
export function ShareApprovalsRoute() {
  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading size="2xl">Share approvals</Heading>
        <Text color="fg.muted">
          Shares your hospital's policy holds until a team lead or hospital admin approves them.
        </Text>
      </Stack>
      <ShareApprovals />
    </Stack>
  );
}
