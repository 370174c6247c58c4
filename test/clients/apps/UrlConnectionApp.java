import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class UrlConnectionApp {
  static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
    return m.find() ? m.group(1) : null;
  }

  /** The status and the body, as "status body". */
  static String[] send(String method, String url, String type, String body, String... headers) throws Exception {
    HttpURLConnection conn = (HttpURLConnection) new URL(url).openConnection();
    conn.setRequestMethod(method);
    conn.setDoOutput(true);
    conn.setRequestProperty("Content-Type", type);
    for (int i = 0; i < headers.length; i += 2) conn.setRequestProperty(headers[i], headers[i + 1]);
    try (OutputStream out = conn.getOutputStream()) {
      out.write(body.getBytes(StandardCharsets.UTF_8));
    }
    int status = conn.getResponseCode();
    try (InputStream in = status < 400 ? conn.getInputStream() : conn.getErrorStream()) {
      return new String[] {String.valueOf(status), new String(in.readAllBytes(), StandardCharsets.UTF_8)};
    }
  }

  public static void main(String[] args) throws Exception {
    String json = "application/json", charge = "{\"amount\":49.9,\"description\":\"Pedido 1\"}";
    String[] res = send("POST", "https://api.pague.dev/v1/pix", json, charge, "X-API-Key", System.getenv("APP_API_KEY"));
    System.out.println("v1 " + res[0] + " " + field(res[1], "id"));
    String auth = "{\"client_id\":\"" + System.getenv("APP_CLIENT_ID") + "\",\"client_secret\":\"" + System.getenv("APP_CLIENT_SECRET") + "\"}";
    String token = field(send("POST", "https://api-gateway.pague.dev/v2/auth", json, auth)[1], "access_token");
    res = send("POST", "https://api-gateway.pague.dev/v2/pix", json, charge, "Authorization", "Bearer " + token);
    System.out.println("v2 " + res[0] + " " + field(res[1], "id"));
    String pix = System.getenv("APP_PIX_URL");
    String basic = Base64.getEncoder().encodeToString((System.getenv("APP_CLIENT_ID") + ":" + System.getenv("APP_CLIENT_SECRET")).getBytes());
    token = field(send("POST", pix + "/oauth/token", "application/x-www-form-urlencoded", "grant_type=client_credentials", "Authorization", "Basic " + basic)[1], "access_token");
    String cob = "{\"calendario\":{\"expiracao\":3600},\"valor\":{\"original\":\"123.45\"},\"chave\":\"8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d\"}";
    res = send("PUT", pix + "/v2/cob/" + System.getenv("APP_TXID"), json, cob, "Authorization", "Bearer " + token);
    System.out.println("cob " + res[0] + " " + field(res[1], "status"));
  }
}
