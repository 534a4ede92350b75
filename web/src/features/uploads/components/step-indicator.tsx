import { Box, Circle, Flex, Text } from '@chakra-ui/react';
import { LuCheck } from 'react-icons/lu';

const WIZARD_STEPS = [
  'Patient Context',
  'File Discovery',
  'Series Selection',
  'Anonymization',
  'Upload & Processing',
] as const;

export function StepIndicator({ current }: { current: number }) {
  return (
    <Flex as="ol" gap="2" wrap="wrap" aria-label="Upload steps" listStyleType="none">
      {WIZARD_STEPS.map((label, i) => {
        const state = i < current ? 'done' : i === current ? 'current' : 'upcoming';
        return (
          <Flex
            as="li"
            key={label}
            align="center"
            gap="2"
            flex="1"
            minW="32"
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <Circle
              size="8"
              bg={state === 'upcoming' ? 'bg.muted' : 'blue.solid'}
              color={state === 'upcoming' ? 'fg.muted' : 'white'}
              fontWeight="bold"
              fontSize="sm"
            >
              {state === 'done' ? <LuCheck /> : i + 1}
            </Circle>
            <Text
              fontSize="sm"
              fontWeight={state === 'current' ? 'semibold' : 'normal'}
              color={state === 'upcoming' ? 'fg.muted' : 'fg'}
            >
              {label}
            </Text>
            {i < WIZARD_STEPS.length - 1 && <Box flex="1" h="1px" bg="border" hideBelow="lg" />}
          </Flex>
        );
      })}
    </Flex>
  );
}
