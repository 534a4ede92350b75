import { Text } from '@chakra-ui/react';
import { LuUsersRound } from 'react-icons/lu';
import { EmptyBlock } from '#web/components/ui/page-states.tsx';

/** docs/error-catalogue.md#screen-states: a user without a team. */
export function NoTeamAccess() {
  return (
    <EmptyBlock
      icon={<LuUsersRound />}
      title="No Team Access"
      description="You need to be assigned to a team to access this section."
    >
      <Text fontSize="sm" color="fg.muted">
        Contact your hospital administrator for team assignment.
      </Text>
    </EmptyBlock>
  );
}
