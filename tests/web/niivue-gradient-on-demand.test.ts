import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#tests/helpers/shared-data.ts';
import { gradientOnDemand, NIIVUE_MODULE } from '#web-build/niivue-gradient-on-demand.ts';

/** The NiiVue bundle the site is built from, as installed. */
function installedNiivue(): { path: string; code: string } {
  const path = join(REPO_ROOT, 'node_modules', '@niivue', 'niivue', 'build', 'niivue', 'index.js');
  return { path, code: readFileSync(path, 'utf8') };
}

describe("the site's build of NiiVue computes the lighting gradient only for a lit render", () => {
  it('guards the one gradient pass of refreshLayers in the installed NiiVue and leaves the rest as it was', () => {
    // Prepare
    const { path, code } = installedNiivue();

    // Act
    const patched = gradientOnDemand(code);

    // Assess
    expect(NIIVUE_MODULE.test(path)).toBe(true);
    const guard = 'if (this.gradientTextureAmount > 0 || this.opts.gradientOpacity > 0 || this.renderGradientValues) ';
    expect(patched.split(guard)).toHaveLength(2);
    expect(patched).toContain(`${guard}this.gradientTexture = gradientGL({`);
    expect(patched.length - code.length).toBe(guard.length);
    // setVolumeRenderIllumination still refreshes the layers, which is what builds the gradient when asked for.
    expect(code).toMatch(
      /this\.gradientTextureAmount = gradientAmount;[\s\S]{0,200}await this\.refreshLayers\(this\.volumes\[0\], 0\)/,
    );
  });

  it('fails the build when NiiVue no longer has the pass it guards, instead of shipping it unguarded', () => {
    // Act
    const attempt = () => gradientOnDemand('export class Niivue {}');

    // Assess
    expect(attempt).toThrow(/NiiVue gradient pass not found/);
  });
});
