import type { Plugin } from 'vite';

/**
 * docs/screens.md#visualizer: NiiVue (0.69) rebuilds the lighting gradient of the background volume (a blur and a
 * Sobel pass over every voxel, `gradientGL`) each time it refreshes layer 0, even when nothing shows it. Only a lit 3D
 * render samples that texture: volume illumination (`setVolumeRenderIllumination` above 0), gradient opacity, or the
 * gradient display mode. Without a GPU (SwiftShader) the pass takes seconds, so the site's build computes it only in
 * those cases; `setVolumeRenderIllumination` refreshes the layers itself, so the gradient follows when a lit render is
 * asked for.
 */
export const NIIVUE_MODULE = /[\\/]@niivue[\\/]niivue[\\/]build[\\/]niivue[\\/]index\.js$/;

/** The lines of refreshLayers that start the gradient pass for layer 0, as the published bundle writes them. */
const GRADIENT_PASS =
  /(if \(layer === 0\) \{\s*this\.volumeTexture = outTexture;\s*)(this\.gradientTexture = gradientGL\(\{)/;

const NEEDS_GRADIENT =
  'if (this.gradientTextureAmount > 0 || this.opts.gradientOpacity > 0 || this.renderGradientValues) ';

/** The bundle's code with the gradient pass run only when a lit render needs it; throws when the pattern is gone. */
export function gradientOnDemand(code: string): string {
  if (!GRADIENT_PASS.test(code))
    throw new Error(
      'NiiVue gradient pass not found in @niivue/niivue: the library changed; check whether it now computes the ' +
        'gradient on demand itself and update or remove web/build/niivue-gradient-on-demand.ts',
    );
  return code.replace(GRADIENT_PASS, `$1${NEEDS_GRADIENT}$2`);
}

function transform(code: string, id: string) {
  if (!NIIVUE_MODULE.test(id.split('?')[0]!)) return null;
  return { code: gradientOnDemand(code), map: null };
}

/**
 * Vite plugin applying gradientOnDemand to NiiVue's module: in the build, and in the dev server's pre-bundling of
 * dependencies (which plugins' own transforms do not see).
 */
export function niivueGradientOnDemand(): Plugin {
  return {
    name: 'iws-niivue-gradient-on-demand',
    enforce: 'pre',
    config: () => ({
      optimizeDeps: { rolldownOptions: { plugins: [{ name: 'iws-niivue-gradient-on-demand-deps', transform }] } },
    }),
    transform,
  };
}
