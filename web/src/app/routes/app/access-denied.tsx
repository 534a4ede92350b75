import { Button } from '@chakra-ui/react';
import { LuShieldOff } from 'react-icons/lu';
import { Link } from 'react-router-dom';
import { EmptyBlock } from '#web/components/ui/page-states.tsx';
import { paths } from '#web/config/paths.ts';

/** docs/error-catalogue.md#screen-states: "Access Denied" / "You don't have permission to access {area}." */
export function AccessDenied({ area }: { area: string }) {
  return (
    <EmptyBlock
      icon={<LuShieldOff />}
      title="Access Denied"
      description={`You don't have permission to access ${area}.`}
    >
      <Button asChild variant="outline">
        <Link to={paths.dashboard.getHref()}>Back to Dashboard</Link>
      </Button>
    </EmptyBlock>
  );
}
