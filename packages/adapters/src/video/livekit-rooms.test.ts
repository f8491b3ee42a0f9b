import { describe, expect, it } from "vitest";
import { roomServiceAddress } from "./livekit-rooms";

describe("roomServiceAddress", () => {
  it("turns the clients' WebSocket address into the API's HTTP address, same host and port", () => {
    expect(roomServiceAddress("wss://video.example.com")).toBe("https://video.example.com");
    expect(roomServiceAddress("ws://127.0.0.1:7880")).toBe("http://127.0.0.1:7880");
    expect(roomServiceAddress("wss://video.example.com:8443/rtc")).toBe("https://video.example.com:8443");
  });
});
