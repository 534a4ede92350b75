import { ChakraProvider, createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { ColorModeProvider } from './color-mode.tsx';

const config = defineConfig({
  globalCss: { 'html, body, #root': { height: '100%' } },
  theme: {
    tokens: {
      fonts: { heading: { value: 'Inter, system-ui, sans-serif' }, body: { value: 'Inter, system-ui, sans-serif' } },
    },
  },
});

export const system = createSystem(defaultConfig, config);

export function UiProvider({ children }: { children: ReactNode }) {
  return (
    <ChakraProvider value={system}>
      <ColorModeProvider>{children}</ColorModeProvider>
    </ChakraProvider>
  );
}
