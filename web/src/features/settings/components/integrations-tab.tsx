import { Card, Tabs } from '@chakra-ui/react';
import { IntegrationsSection } from './integrations-section.tsx';

/** Integrations: saved at once, apart from the form's Save Changes (docs/dicom-intake.md#integrations). */
export function IntegrationsTab() {
  return (
    <Tabs.Content value="integrations">
      <Card.Root>
        <Card.Body>
          <IntegrationsSection />
        </Card.Body>
      </Card.Root>
    </Tabs.Content>
  );
}
