/**
 * The fixture a user of the generated scene-editor package writes (tests/fixture.ts, as the generated
 * README says): reset, samples, a snapshot and the optional members. Copied into the generated
 * package by independent.test.ts, next to the server it starts (./scene-server.js).
 */
import type { Fixture, Input } from "./runtime/harness.js";
import { type SceneConvention, type SceneDefect, type SceneServer, startSceneServer } from "./scene-server.js";

let server: SceneServer | undefined;
const running = (): SceneServer => {
  if (!server) throw new Error("the scene server is not started");
  return server;
};

export const fixture: Fixture = {
  get baseUrl() {
    return running().url;
  },

  async start() {
    // SCENES_DEFECT seeds one defect (independent.test.ts shows the suite catches it).
    const defect = process.env.SCENES_DEFECT as SceneDefect | undefined;
    // SCENES_CONVENTION: another team's correct choice (independent.test.ts shows no check fails on it).
    const convention = process.env.SCENES_CONVENTION as SceneConvention | undefined;
    server = await startSceneServer({ ...(defect ? { defect } : {}), ...(convention ? { convention } : {}) });
  },
  async stop() {
    await server?.close();
  },

  async reset(): Promise<void> {
    running().reset();
  },

  sampleInput(operation: string, variant = 0): Input | undefined {
    switch (operation) {
      case "list_scenes":
        return variant === 0 ? {} : { act: 2 };
      case "get_scene":
        return variant === 0 ? { scene_id: "scn_001" } : { scene_id: "scn_002" };
      case "rename_scene":
        // Both variants rename the same scene, as a user would write them.
        return { scene_id: "scn_001", expected_name: "Opening", name: variant === 0 ? "Prologue" : "Cold open" };
      case "delete_scene":
        return { scene_id: variant === 0 ? "scn_002" : "scn_003" };
      case "count_scenes":
        return variant === 0 ? {} : { act: 2 };
      default:
        return undefined;
    }
  },

  async observe() {
    return running().scenes();
  },

  async advanceTime(ms: number) {
    running().advance(ms);
  },

  errorInput(operation: string, code: string): Input | undefined {
    if (code === "SCENE_NOT_FOUND") {
      if (operation === "get_scene" || operation === "delete_scene") return { scene_id: "scn_404" };
      if (operation === "rename_scene") return { scene_id: "scn_404", expected_name: "Nothing", name: "Still nothing" };
    }
    return undefined;
  },

  async resetWith({ dataset = "default", maxExaminedPerCall }) {
    running().reset({ dataset, ...(maxExaminedPerCall !== undefined ? { maxExaminedPerCall } : {}) });
    return true;
  },
};
