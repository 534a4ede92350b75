import { Alert, Center, EmptyState, Spinner, Text, VStack } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function PageSpinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <Center py="16" role="status" aria-live="polite">
      <VStack>
        <Spinner size="lg" />
        <Text color="fg.muted">{label}</Text>
      </VStack>
    </Center>
  );
}

export function ErrorBox({ title = 'Error', message }: { title?: string; message: string }) {
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{message}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

export function EmptyBlock({
  title,
  description,
  icon,
  children,
}: {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <EmptyState.Root>
      <EmptyState.Content>
        {icon && <EmptyState.Indicator>{icon}</EmptyState.Indicator>}
        <VStack textAlign="center">
          <EmptyState.Title>{title}</EmptyState.Title>
          {description && <EmptyState.Description>{description}</EmptyState.Description>}
        </VStack>
        {children}
      </EmptyState.Content>
    </EmptyState.Root>
  );
}
