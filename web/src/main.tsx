import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadRuntimeConfig } from './config/runtime-config.ts';
import { configureCognito } from './features/auth/api/cognito-session.ts';

const root = createRoot(document.getElementById('root')!);

/** Runtime settings come first: the user pool and the API base are only known from /config.json. */
loadRuntimeConfig()
  .then((config) => {
    configureCognito(config);
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  })
  .catch((error: unknown) => {
    root.render(
      <div role="alert" style={{ fontFamily: 'system-ui', padding: 32 }}>
        <h1>Imaging Workspace is not available</h1>
        <p>{error instanceof Error ? error.message : 'The site configuration could not be loaded.'}</p>
      </div>,
    );
  });
