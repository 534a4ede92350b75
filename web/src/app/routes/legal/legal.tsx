import { Container, Heading, Link as ChakraLink, List, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '#web/config/paths.ts';

/** A public page of plain text with a way back (docs/screens.md#terms-and-privacy). */
function LegalPage({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <Container as="main" maxW="3xl" py="12">
      <Stack gap="6">
        <ChakraLink asChild>
          <Link to={paths.home.getHref()}>Back to Home</Link>
        </ChakraLink>
        <Heading as="h1" size="2xl">
          {title}
        </Heading>
        <Text color="fg.muted">{intro}</Text>
        {children}
      </Stack>
    </Container>
  );
}

function Section({ title, items }: { title: string; items: string[] }) {
  return (
    <Stack as="section" gap="2">
      <Heading as="h2" size="md">
        {title}
      </Heading>
      <List.Root ps="5">
        {items.map((item) => (
          <List.Item key={item}>{item}</List.Item>
        ))}
      </List.Root>
    </Stack>
  );
}

/** /terms: what the service does and what its users agree to. */
export function TermsRoute() {
  return (
    <LegalPage
      title="Terms of Service"
      intro="Imaging Workspace is a service for hospitals: their staff upload medical imaging studies, have them de-identified, classified and processed, and view and share the results. These terms say what the service does and what its users agree to."
    >
      <Section
        title="Who may use it"
        items={[
          'Accounts are created by a hospital administrator, by invitation, for the hospital’s staff and guests.',
          'Each person signs in with their own account and keeps their password and authenticator to themselves.',
          'What a person may see and do follows their role and team, as their hospital sets them.',
        ]}
      />
      <Section
        title="What users agree to"
        items={[
          'Upload only studies their hospital allows them to process, with the patient’s consent where it is required.',
          'Share studies only as the hospital’s sharing policy allows; shares may need approval and can be revoked.',
          'Not try to identify patients from de-identified data.',
        ]}
      />
      <Section
        title="What the service does"
        items={[
          'It stores each hospital’s data apart from every other hospital’s.',
          'It records every change and every view of patient data in the hospital’s audit trail.',
          'Deleted studies stay in the hospital’s recycle bin for 30 days before they are removed for good, and the hospital’s retention period removes older studies the same way.',
        ]}
      />
    </LegalPage>
  );
}

/** /privacy: what happens to the data a hospital uploads. */
export function PrivacyRoute() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro="What Imaging Workspace does with the data a hospital puts into it, and with the data of the people who use it."
    >
      <Section
        title="Imaging studies"
        items={[
          'Uploaded DICOM files are de-identified before they are processed: names, identifiers, dates and free text are removed or replaced following the DICOM confidentiality profile, with the options the hospital chooses.',
          'The medical record number typed at upload is never stored: a study keeps a keyed hash of it, so studies of one patient can be linked, and is shown under a patient alias.',
          'Images with text burned into the pixels are flagged so a person can check them.',
          'Processed results (volumes, surfaces, reports) are kept with the study and deleted with it.',
        ]}
      />
      <Section
        title="Who sees the data"
        items={[
          'Only the hospital’s own users, as their roles and teams allow, and the people a study is shared with.',
          'Every view, download and change is written to the hospital’s audit trail, which its administrators can review and export.',
          'Data is not sold and not used for anything but the service the hospital asked for.',
        ]}
      />
      <Section
        title="Account data"
        items={[
          'For each user: name, e-mail, role, team, sign-in times and settings, used to run the service and shown to the hospital’s administrators.',
          'Passwords and second factors are handled by the sign-in service and never stored by Imaging Workspace itself.',
        ]}
      />
      <Section
        title="Keeping and deleting"
        items={[
          'A hospital sets how long its studies are kept; older studies are moved to the recycle bin and removed 30 days later.',
          'When a hospital is deactivated its users can no longer sign in, and its data is kept, unread, until it is restored.',
        ]}
      />
    </LegalPage>
  );
}
