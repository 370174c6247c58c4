import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class HttpClientApp {
  static final HttpClient client = HttpClient.newHttpClient();

  static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
    return m.find() ? m.group(1) : null;
  }

  static HttpResponse<String> send(String method, String url, String type, String body, String... headers) throws Exception {
    HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url)).method(method, HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", type);
    if (headers.length > 0) req.headers(headers);
    return client.send(req.build(), HttpResponse.BodyHandlers.ofString());
  }

  public static void main(String[] args) throws Exception {
    String json = "application/json", charge = "{\"amount\":49.9,\"description\":\"Pedido 1\"}";
    HttpResponse<String> res = send("POST", "https://api.pague.dev/v1/pix", json, charge, "X-API-Key", System.getenv("APP_API_KEY"));
    System.out.println("v1 " + res.statusCode() + " " + field(res.body(), "id"));
    String auth = "{\"client_id\":\"" + System.getenv("APP_CLIENT_ID") + "\",\"client_secret\":\"" + System.getenv("APP_CLIENT_SECRET") + "\"}";
    String token = field(send("POST", "https://api-gateway.pague.dev/v2/auth", json, auth).body(), "access_token");
    res = send("POST", "https://api-gateway.pague.dev/v2/pix", json, charge, "Authorization", "Bearer " + token);
    System.out.println("v2 " + res.statusCode() + " " + field(res.body(), "id"));
    String pix = System.getenv("APP_PIX_URL");
    String basic = Base64.getEncoder().encodeToString((System.getenv("APP_CLIENT_ID") + ":" + System.getenv("APP_CLIENT_SECRET")).getBytes());
    token = field(send("POST", pix + "/oauth/token", "application/x-www-form-urlencoded", "grant_type=client_credentials", "Authorization", "Basic " + basic).body(), "access_token");
    String cob = "{\"calendario\":{\"expiracao\":3600},\"valor\":{\"original\":\"123.45\"},\"chave\":\"8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d\"}";
    res = send("PUT", pix + "/v2/cob/" + System.getenv("APP_TXID"), json, cob, "Authorization", "Bearer " + token);
    System.out.println("cob " + res.statusCode() + " " + field(res.body(), "status"));
  }
}
