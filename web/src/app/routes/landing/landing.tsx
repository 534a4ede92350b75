import { Box, Button, Container, Flex, Heading, HStack, Icon, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { LuBrainCircuit, LuCircleCheck, LuCloudUpload, LuShieldCheck, LuUsers } from 'react-icons/lu';
import { Link } from 'react-router-dom';
import { ColorModeButton } from '#web/components/ui/color-mode.tsx';
import { paths } from '#web/config/paths.ts';

const FEATURES = [
  {
    icon: LuBrainCircuit,
    title: 'AI-powered DICOM analysis',
    text: 'Every series is classified into its MRI sequence type from its acquisition physics, with a confidence you can review.',
  },
  {
    icon: LuShieldCheck,
    title: 'HIPAA-compliant security',
    text: 'Studies are de-identified with the DICOM PS3.15 Basic Profile before anyone works on them.',
  },
  {
    icon: LuCloudUpload,
    title: 'Fast cloud processing',
    text: 'Volumes, surfaces, tracts and a PDF report are built for each study as soon as it is uploaded.',
  },
  {
    icon: LuUsers,
    title: 'Real-time collaboration',
    text: 'Teams share datasets inside their hospital, with every access audited.',
  },
];

const BENEFITS = [
  '90% less processing time',
  'HIPAA and SOC 2 compliant',
  '24/7 enterprise support',
  'Unlimited team members',
  'Advanced analytics dashboard',
  'API integration ready',
];

/** The landing page (docs/screens.md#landing-page). */
export function LandingRoute() {
  return (
    <Box>
      <Flex as="header" px="6" py="3" align="center" gap="6" borderBottomWidth="1px">
        <HStack>
          <LuBrainCircuit size="24" aria-hidden />
          <Text fontWeight="bold">Imaging Workspace</Text>
        </HStack>
        <HStack as="nav" gap="5" hideBelow="md" aria-label="Landing sections">
          <a href="#features">Features</a>
          <a href="#pricing">Pricing</a>
          <a href="#docs">Docs</a>
        </HStack>
        <HStack ml="auto">
          <ColorModeButton />
          <Button asChild size="sm">
            <Link to={paths.login.getHref()}>Login</Link>
          </Button>
        </HStack>
      </Flex>
      <Container maxW="5xl" py="20">
        <Stack gap="6" textAlign="center" align="center">
          <Heading size="4xl">Brain MRI studies, de-identified, classified and ready to read</Heading>
          <Text fontSize="lg" color="fg.muted" maxW="2xl">
            Upload DICOM studies from your hospital, let the workspace anonymize and organise them, and open them in a
            3D viewer with your team.
          </Text>
          <HStack>
            <Button asChild size="lg">
              <Link to={paths.login.getHref()}>Get Started</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <a href="#features">Watch Demo</a>
            </Button>
          </HStack>
        </Stack>
      </Container>
      <Container maxW="6xl" py="12" id="features">
        <SimpleGrid columns={{ base: 1, md: 2, lg: 4 }} gap="6">
          {FEATURES.map((f) => (
            <Stack key={f.title} p="5" borderWidth="1px" rounded="lg" gap="3">
              <Icon as={f.icon} boxSize="7" color="blue.500" />
              <Heading size="md">{f.title}</Heading>
              <Text color="fg.muted">{f.text}</Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Container>
      <Container maxW="4xl" py="12" id="pricing">
        <Heading size="xl" mb="4">
          Why hospitals choose Imaging Workspace
        </Heading>
        <List.Root gap="2" variant="plain">
          {BENEFITS.map((b) => (
            <List.Item key={b}>
              <List.Indicator asChild color="green.500">
                <LuCircleCheck />
              </List.Indicator>
              {b}
            </List.Item>
          ))}
        </List.Root>
      </Container>
      <Container maxW="4xl" py="16" id="docs" textAlign="center">
        <Heading size="xl" mb="4">
          Ready to bring your imaging workflow online?
        </Heading>
        <Button asChild size="lg">
          <Link to={paths.login.getHref()}>Get Started</Link>
        </Button>
      </Container>
      <Box as="footer" py="6" textAlign="center" borderTopWidth="1px" color="fg.muted" fontSize="sm">
        © 2024 Imaging Workspace · <Link to={paths.terms.getHref()}>Terms of Service</Link> ·{' '}
        <Link to={paths.privacy.getHref()}>Privacy Policy</Link>
      </Box>
    </Box>
  );
}
