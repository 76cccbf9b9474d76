// A POS on the HTTP integrator API with java.net.HttpURLConnection, the classic API of older POS
// code, with its defaults: setDoOutput(true) sends application/x-www-form-urlencoded unless a
// Content-Type is set, every request carries Accept "text/html, image/gif, image/jpeg, *; q=.2,
// */*; q=.2", and getInputStream() throws on 4xx and 5xx: the reply is in getErrorStream().
// Run as a single file: java Legacy.java BASE_URL TOKEN ORDER_ID
// Prints "step status threw|read <response Content-Type> <body>" lines.
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;

public class Legacy {
	static String base, token;

	static void call(String step, String method, String path, String body, boolean json) throws Exception {
		HttpURLConnection conn = (HttpURLConnection) new URL(base + path).openConnection();
		conn.setRequestMethod(method);
		conn.setConnectTimeout(10_000);
		conn.setReadTimeout(30_000);
		conn.setRequestProperty("x-integration-token", token);
		conn.setRequestProperty("x-location-id", "loc-1");
		conn.setRequestProperty("x-device-ids", "kds-1");
		if (json) conn.setRequestProperty("Content-Type", "application/json");
		if (body != null) {
			conn.setDoOutput(true);
			try (OutputStream out = conn.getOutputStream()) {
				out.write(body.getBytes(StandardCharsets.UTF_8));
			}
		}
		int status = conn.getResponseCode();
		String how = "read";
		InputStream in;
		try {
			in = conn.getInputStream();
		} catch (IOException e) {
			// What older POS code learns the hard way: the answer to a 4xx is here.
			how = "threw";
			in = conn.getErrorStream();
		}
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		if (in != null) in.transferTo(bytes);
		System.out.println(step + " " + status + " " + how + " " + conn.getContentType().replace(" ", "") + " "
			+ bytes.toString(StandardCharsets.UTF_8));
	}

	public static void main(String[] args) throws Exception {
		base = args[0].replaceAll("/$", "");
		token = args[1];
		String id = args[2];
		call("health", "GET", "/health", null, false);
		// OffsetDateTime's toString(): 2026-11-24T02:00:59.729233-06:00 (micro- or nanoseconds).
		OffsetDateTime now = OffsetDateTime.now();
		System.out.println("time " + now + " " + now.toInstant().toEpochMilli());
		// Unicode written as escapes: the source stays ASCII whatever the machine's locale.
		String order = "{\"id\":\"" + id + "\",\"name\":\"M\u00fcller \u00e7a va \ud83c\udf5f\",\"time\":\"" + now
			+ "\",\"mode\":\"DriveThru\",\"checkNumber\":\"0042\",\"server\":null,\"items\":[{\"lineId\":\"1\",\"name\":\"Pommes\","
			+ "\"qty\":1,\"mods\":[{\"name\":\"Mayo\",\"qty\":null}],\"price\":\"\u20ac3,50\"}]}";
		call("no-content-type", "POST", "/integrators/kds-orders", order, false);
		call("create", "POST", "/integrators/kds-orders", order, true);
		call("duplicate", "POST", "/integrators/kds-orders", order, true);
		// POST, as for a create: the contract's cancel is a PUT.
		call("cancel-post", "POST", "/integrators/kds-orders/cancel", "{\"id\":\"" + id + "\"}", true);
		call("cancel-unknown", "PUT", "/integrators/kds-orders/cancel", "{\"id\":\"" + id + "-none\"}", true);
		call("cancel", "PUT", "/integrators/kds-orders/cancel", "{\"id\":\"" + id + "\"}", true);
		call("active", "GET", "/integrators/kds-orders/active", null, false);
	}
}
