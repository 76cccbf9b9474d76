// A POS on the HTTP integrator API with java.net.http.HttpClient as it comes (HTTP/2 preferred,
// so every request to http:// asks for an h2c upgrade), times from LocalDateTime.now().
// Run as a single file: java Client.java BASE_URL TOKEN ORDER_ID
// Prints "step status body" lines.
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZonedDateTime;

public class Client {
	static HttpClient client = HttpClient.newHttpClient();
	static String base, token;

	static void call(String step, String method, String path, String body) throws Exception {
		HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(base + path))
			.timeout(Duration.ofSeconds(30))
			.header("x-integration-token", token)
			.header("x-location-id", "loc-1")
			.header("x-device-ids", "kds-1")
			.header("Content-Type", "application/json");
		req.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
		HttpResponse<String> res = client.send(req.build(), HttpResponse.BodyHandlers.ofString());
		System.out.println(step + " " + res.statusCode() + " " + res.body());
	}

	public static void main(String[] args) throws Exception {
		base = args[0];
		token = args[1];
		String id = args[2];
		call("health", "GET", "/health", null);
		ZonedDateTime now = ZonedDateTime.now();
		// LocalDateTime's toString(): 2026-11-24T02:00:59.729233, local time, no offset.
		String time = now.toLocalDateTime().toString();
		System.out.println("time " + time + " " + now.toInstant().toEpochMilli());
		call("create", "POST", "/integrators/kds-orders", "{\"id\":\"" + id + "\",\"name\":\"Java\",\"time\":\"" + time
			+ "\",\"mode\":\"Pickup\",\"pickupTime\":null,\"items\":[{\"lineId\":\"1\",\"name\":\"Bagel\",\"qty\":1,\"mods\":[],\"price\":\"2.10\"}]}");
		call("partial", "PUT", "/integrators/kds-orders/partial", "{\"id\":\"" + id + "\",\"name\":\"Java 2\"}");
		call("too-large", "POST", "/integrators/kds-orders", "{\"id\":\"" + "x".repeat(8 << 20) + "\"}");
		call("active", "GET", "/integrators/kds-orders/active", null);
	}
}
