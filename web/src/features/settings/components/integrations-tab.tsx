import { Card, Stack, Tabs } from '@chakra-ui/react';
import { IntegrationsSection } from './integrations-section.tsx';
import { ScimSection } from './scim-section.tsx';

/**
 * Integrations: saved at once, apart from the form's Save Changes (docs/dicom-intake.md#integrations), and the
 * identity provider's provisioning of users (docs/sso.md#provisioning-scim).
 */
export function IntegrationsTab() {
  return (
    <Tabs.Content value="integrations">
      <Stack gap="4">
        <Card.Root>
          <Card.Body>
            <IntegrationsSection />
          </Card.Body>
        </Card.Root>
        <Card.Root>
          <Card.Body>
            <ScimSection />
          </Card.Body>
        </Card.Root>
      </Stack>
    </Tabs.Content>
  );
}
