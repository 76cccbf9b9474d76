// Testcontainers for .NET (xUnit): the simulator as a class fixture (docs/ci.md).
// UNTESTED here: no .NET SDK on this machine and nuget.org unreachable.
// Needs the NuGet packages Testcontainers and xunit.
using System.Net.Http;
using System.Net.Sockets;
using System.Text;
using DotNet.Testcontainers.Builders;
using DotNet.Testcontainers.Containers;
using Xunit;

public sealed class KdsSimFixture : IAsyncLifetime
{
    public const string Token = "dotnet-pos-token";
    public const string AdminToken = "dotnet-admin-token";
    public IContainer Kds { get; } = new ContainerBuilder()
        .WithImage("ghcr.io/kds-sim/kds-sim:0.1")
        .WithPortBinding(8104, true)
        .WithPortBinding(9104, true)
        .WithEnvironment("KDS_TOKEN", Token)
        .WithEnvironment("KDS_ADMIN_TOKEN", AdminToken)
        .WithEnvironment("KDS_MEMORY", "1")
        .WithWaitStrategy(Wait.ForUnixContainer()
            .UntilHttpRequestIsSucceeded(r => r.ForPort(8104).ForPath("/health")))
        .Build();

    public string BaseUrl => $"http://{Kds.Hostname}:{Kds.GetMappedPublicPort(8104)}";
    public Task InitializeAsync() => Kds.StartAsync();
    public Task DisposeAsync() => Kds.DisposeAsync().AsTask();
}

public class KitchenTests : IClassFixture<KdsSimFixture>
{
    private readonly KdsSimFixture _kds;
    public KitchenTests(KdsSimFixture kds) => _kds = kds;

    [Fact]
    public async Task TcpCreateOrderIsAnsweredWithItsId()
    {
        using var client = new TcpClient(_kds.Kds.Hostname, _kds.Kds.GetMappedPublicPort(9104));
        var stream = client.GetStream();
        var order = "{\"command\":\"create-order\",\"order\":{\"id\":\"n-1\",\"name\":\"DotNet\",\"time\":0,"
            + "\"mode\":\"ToGo\",\"items\":[{\"lineId\":\"1\",\"name\":\"Soup\",\"qty\":1,\"mods\":[]}]}}";
        await stream.WriteAsync(Encoding.UTF8.GetBytes(order));
        client.Client.Shutdown(SocketShutdown.Send);
        using var reader = new StreamReader(stream, Encoding.UTF8);
        Assert.Equal("n-1", await reader.ReadToEndAsync());
    }
}
