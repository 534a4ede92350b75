import { Button } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { EmptyBlock } from '#web/components/ui/page-states.tsx';
import { paths } from '#web/config/paths.ts';

export function NotFoundRoute() {
  return (
    <EmptyBlock
      title="Page not found"
      description="The page you asked for does not exist in this version of Imaging Workspace."
    >
      <Button asChild variant="outline">
        <Link to={paths.dashboard.getHref()}>Back to Dashboard</Link>
      </Button>
    </EmptyBlock>
  );
}
