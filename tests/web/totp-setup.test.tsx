// @vitest-environment jsdom
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { system } from '#web/components/ui/provider.tsx';

const URI = 'otpauth://totp/Imaging%20Workspace:robin%40x.test?secret=JBSWY3DPEHPK3PXP&issuer=Imaging%20Workspace';
vi.mock('#web/features/auth/api/cognito-session.ts', () => ({
  startTotpEnrolment: vi.fn(async () => ({ secret: 'JBSWY3DPEHPK3PXP', uri: URI })),
  finishTotpEnrolment: vi.fn(async () => {}),
}));

const { TotpSetup } = await import('#web/features/auth/components/totp-setup.tsx');

afterEach(cleanup);

describe('two-factor enrolment', () => {
  it('shows a QR code of the otpauth link beside the link and the key', async () => {
    render(
      <ChakraProvider value={system}>
        <TotpSetup email="robin@x.test" />
      </ChakraProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }));
    const image = (await waitFor(() => screen.getByAltText('QR code for your authenticator app'))) as HTMLImageElement;
    expect(image.src).toMatch(/^data:image\/png;base64,/);
    // The code scans back to the very link an authenticator app needs.
    const png = PNG.sync.read(Buffer.from(image.src.split(',')[1]!, 'base64'));
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(URI);
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSWY3DPEHPK3PXP');
  });
});
